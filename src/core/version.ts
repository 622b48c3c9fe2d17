import { readFileSync } from 'node:fs'

/** Set by the build (scripts/build.ts) to package.json's version; absent where tsx runs the sources. */
declare const DEVUTILS_VERSION: string | undefined

/**
 * The package's version, as package.json states it: the one version that `/health`, the OpenAPI
 * document, the MCP server and `devutils --version` report.
 */
export const VERSION: string =
  typeof DEVUTILS_VERSION === 'string'
    ? DEVUTILS_VERSION
    : (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version
