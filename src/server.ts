import cluster from 'node:cluster'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import { CONFIG_VARIABLES, type Config, flagOf, loadConfig } from './core/config.ts'
import { closeWorkerPool, recycleThreadsAbove } from './core/pool.ts'
import { lowerBackgroundThreadsPriority } from './core/priority.ts'
import { buildApp } from './http/app.ts'

/**
 * The RSS past which an idle server ends its worker threads for new ones: a thread keeps what every
 * operation it ran loaded, and this is well below the 512 MiB the service holds itself to, so that
 * what a thread kept never adds to what the next hostile input may take (docs/ROBUSTNESS.md).
 */
const RECYCLE_THREADS_ABOVE_RSS_BYTES = 256 * 2 ** 20

/**
 * Starts one server process that listens, and shuts it down gracefully on SIGTERM/SIGINT: /ready
 * turns false, new connections are refused, requests in flight finish, then the process exits.
 * The signals stay handled until the process exits: a repeated one (a supervisor signals the whole
 * process group, and `npm start` or a cluster's primary passes the signal on too) is logged and
 * ignored, so the drain is never cut short. Only its deadline ends it early; SIGKILL ends it at once.
 */
export async function serve(config: Config): Promise<void> {
  const app = await buildApp({ config })
  await app.listen({ port: config.port, host: config.host })
  // The worker pool starts with the first heavy request, not here: an idle thread costs memory, and
  // a server may never need it.
  lowerBackgroundThreadsPriority()
  recycleThreadsAbove(RECYCLE_THREADS_ABOVE_RSS_BYTES)
  let stopping = false
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      app.log.info({ signal }, 'shutdown already under way: the signal is ignored while the requests in flight finish')
      return
    }
    stopping = true
    app.readiness.ready = false
    app.log.info({ signal }, 'shutting down: finishing the requests in flight')
    // A request in flight has at most the time to arrive plus the time budget to finish.
    setTimeout(
      () => {
        app.log.error('requests still in flight after the shutdown deadline; exiting anyway')
        process.exit(1)
      },
      config.requestTimeoutMs + config.timeBudgetMs + 1000,
    ).unref()
    await app.close()
    await closeWorkerPool()
    app.log.info('shut down')
    process.exit(0)
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

/** A worker that dies this soon after starting is restarted only after a pause, so a crash loop cannot spin. */
const CRASH_LOOP_MS = 2000

/**
 * WORKERS=n: the primary forks n server processes that share one port (node:cluster), replaces any
 * that dies, and on SIGTERM/SIGINT passes the signal on and exits when all of them have finished.
 * As in `serve`, a repeated signal is logged and ignored: each worker drains to its own deadline.
 */
export function serveCluster(config: Config): void {
  const log = pino({ level: config.logLevel })
  const startedAt = new Map<number, number>()
  const fork = () => {
    const worker = cluster.fork()
    startedAt.set(worker.id, Date.now())
  }
  let stopping = false
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0)
    startedAt.delete(worker.id)
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        log.info('all workers have stopped')
        process.exit(0)
      }
      return
    }
    log.warn({ pid: worker.process.pid, code, signal }, 'worker died; starting a replacement')
    setTimeout(fork, lived < CRASH_LOOP_MS ? CRASH_LOOP_MS : 0)
  })
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.info({ signal }, 'shutdown already under way: the signal is ignored while the workers finish')
      return
    }
    stopping = true
    log.info({ signal, workers: Object.keys(cluster.workers ?? {}).length }, 'shutting down the workers')
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM')
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  log.info({ workers: config.workers, port: config.port }, 'starting workers')
  for (let i = 0; i < config.workers; i++) fork()
}

/** Each setting of the configuration as a flag (`--port`, `--body-limit`, `--log-level`…), overriding the environment. */
export function configFromArgs(args: string[], env: NodeJS.ProcessEnv = process.env): Config {
  const options = Object.fromEntries(CONFIG_VARIABLES.map((variable) => [flagOf(variable), { type: 'string' as const }]))
  const { values } = parseArgs({ args, options, strict: true })
  const overrides = Object.fromEntries(
    CONFIG_VARIABLES.filter((variable) => values[flagOf(variable)] !== undefined).map((variable) => [variable, values[flagOf(variable)]]),
  )
  return loadConfig({ ...env, ...overrides })
}

export async function main(args: string[]): Promise<void> {
  const config = configFromArgs(args)
  if (cluster.isPrimary && config.workers > 1) serveCluster(config)
  else await serve(config)
}

/** Runs `main`, and ends the process with the message of an error that stopped the start. */
export function start(args: string[]): Promise<void> {
  return main(args).catch((error: Error) => {
    process.stderr.write(`devutils: ${error.message}\n`)
    process.exit(1)
  })
}

// Run from the sources (`node --import tsx src/server.ts`); the build's dist/server.js is src/start-server.ts.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await start(process.argv.slice(2))
