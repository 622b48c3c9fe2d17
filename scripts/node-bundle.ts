import type { BuildOptions } from 'esbuild'

/**
 * How code is bundled to run on plain `node` with no loader: the service's build (scripts/build.ts)
 * and the bench's reference servers (bench/reference-servers.ts) alike.
 */
export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.12',
  // ES module builds first: a CommonJS module loaded with a dynamic import() has only a default export in a bundle.
  mainFields: ['module', 'main'],
  legalComments: 'none',
  // Bundled CommonJS modules call require() for Node's own modules; ESM has no require of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
}
