import { join } from 'node:path'
import { build } from 'esbuild'
import { NODE_BUNDLE } from '../scripts/node-bundle.ts'
import { ROOT } from '../test/processes.ts'

/** The servers the service is measured against, as TypeScript sources. */
export const REFERENCE_SOURCES = { bare: 'bench/baseline-server.ts', fastify: 'bench/fastify-server.ts' } as const

/** Each reference server's bundle, a script for plain `node`. */
export type ReferenceServers = Record<keyof typeof REFERENCE_SOURCES, string>

/**
 * The reference servers bundled as the service is built, into `outdir`, to run on plain `node` as
 * the service's build does, not through tsx, whose name-keeping helper runs for every closure a
 * request creates (docs/PERFORMANCE.md).
 */
export async function bundleReferenceServers(outdir: string): Promise<ReferenceServers> {
  const outExtension = '.mjs'
  await build({ ...NODE_BUNDLE, absWorkingDir: ROOT, entryPoints: REFERENCE_SOURCES, outdir, outExtension: { '.js': outExtension } })
  const bundleOf = (name: keyof typeof REFERENCE_SOURCES) => join(outdir, `${name}${outExtension}`)
  return { bare: bundleOf('bare'), fastify: bundleOf('fastify') }
}
