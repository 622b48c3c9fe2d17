/**
 * dist/server.js, what `npm start` runs: the server, with Node's compile cache on before its modules load.
 */
import { enableCompileCacheBesideBundle } from './compile-cache.ts'

enableCompileCacheBesideBundle()
const { start } = await import('./server.ts')
await start(process.argv.slice(2))
