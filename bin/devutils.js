#!/usr/bin/env node
// The `devutils` command: the compiled CLI (`npm run build` writes dist/).
import { main } from '../dist/cli.js'

await main(process.argv.slice(2))
