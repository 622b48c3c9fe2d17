#!/usr/bin/env node
// The `devutils` command: the compiled CLI (`npm run build` writes dist/).
//
// The long-running commands map stack traces in their logs to the TypeScript sources. A one-shot
// operation does not: mapping costs every module loaded a pass over its source map, a tenth of the
// whole call, for a stack trace that only a defect would print.
const command = process.argv[2]
if (command === 'serve' || command === 'mcp') process.setSourceMapsEnabled(true)
const { main } = await import('../dist/cli.js')
await main(process.argv.slice(2))
