#!/usr/bin/env node
// The `devutils` command: the compiled CLI (`npm run build` writes dist/), with Node's compile cache
// on before its modules load.
import { enableCompileCacheBesideBundle } from '../dist/compile-cache.js'

enableCompileCacheBesideBundle()
const { main } = await import('../dist/cli.js')
await main(process.argv.slice(2))
