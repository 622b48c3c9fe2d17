#!/usr/bin/env node
// The `devutils` command: runs the TypeScript sources through tsx, with no build step.
//
// Heavy operations run on worker threads, and on Node 20 a worker thread does not inherit loader
// hooks registered at run time (tsx's `register()`): it could not load `src/core/worker.ts`. It
// does inherit `--import`, so this file starts the CLI in a child Node with `--import tsx` and only
// relays signals and the exit status. A process started with that flag (the child itself, or a
// `serve --workers n` worker forked from it) runs the CLI directly.
import { spawn } from 'node:child_process'
import cluster from 'node:cluster'
import { fileURLToPath } from 'node:url'

const tsx = import.meta.resolve('tsx')

if (process.execArgv.includes(tsx)) {
  if (process.channel && cluster.isPrimary) {
    // The launcher is gone without relaying a signal (it was killed with SIGKILL): stop as on SIGTERM.
    process.channel.unref()
    process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'))
  }
  const { main } = await import('../src/cli/main.ts')
  await main(process.argv.slice(2))
} else {
  const child = spawn(process.execPath, ['--import', tsx, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  })
  // Ctrl-C reaches the child from the terminal as SIGINT; relaying it as SIGTERM rather than a second
  // SIGINT keeps `serve` to one graceful shutdown, since it treats the two signals as one request.
  const relay = { SIGINT: 'SIGTERM', SIGTERM: 'SIGTERM', SIGHUP: 'SIGHUP' }
  const handlers = Object.entries(relay).map(([signal, sent]) => {
    const handler = () => child.kill(sent)
    process.on(signal, handler)
    return [signal, handler]
  })
  child.on('exit', (code, signal) => {
    for (const [name, handler] of handlers) process.off(name, handler)
    if (signal) process.kill(process.pid, signal)
    else process.exit(code ?? 1)
  })
}
