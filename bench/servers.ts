import { spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync, truncateSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { CONFIG_VARIABLES } from '../src/core/config.ts'
import { freePort, ROOT } from '../test/processes.ts'
import { processTreeCpuSeconds, processTreeRssBytes } from './procstat.ts'

/**
 * Production configuration, with a rate limit that is on (every request pays for it) but far above
 * the few hundred thousand requests a minute that the bench sends from its one client address.
 */
export const BENCH_RATE_LIMIT_MAX = 1_000_000_000

export interface Server {
  label: string
  url: string
  /** CPU seconds used so far by the server: its process, its threads and its child processes. */
  cpuSeconds(): number
  /** Resident memory of the server's processes, in bytes. */
  rssBytes(): number
  /** Waits (up to `IDLE_TIMEOUT_MS`) until the server uses less than a tenth of a core over a quarter of a second. */
  untilIdle(): Promise<void>
  /** Empties the server's log file between runs, so that a long bench does not fill the disk. */
  truncateLog(): void
  /** The last few log lines at level warn or above, and any line that is not pino's JSON (a crash's stack trace). */
  problems(): string[]
  stop(): Promise<void>
}

export interface ServerOptions {
  label: string
  script: string
  env?: Record<string, string>
  /** Node options before the script, such as --cpu-prof. */
  nodeOptions?: string[]
  /** Ready once /health answers and the log holds this many "Server listening" lines (one per cluster worker). */
  listeningLines?: number
  /** Where the log file goes. */
  logDir: string
}

const STARTUP_TIMEOUT_MS = 120_000
const IDLE_TIMEOUT_MS = 10_000
const STOP_TIMEOUT_MS = 20_000

/**
 * Starts a server process on a free port and waits until it is ready and has settled: a server
 * answers /health before its worker threads have loaded, and a request sent while the servers
 * started beside it still load theirs competes with them for the cores. Its standard output and error
 * go to a file opened for appending, as a production log would (the log lines are part of the
 * measured cost), so the bench process spends no CPU reading them.
 */
export async function startServer({ label, script, env = {}, nodeOptions = [], listeningLines = 0, logDir }: ServerOptions): Promise<Server> {
  const port = await freePort()
  const logPath = join(logDir, `${label.replace(/[^\w.-]+/g, '-')}.log`)
  const log = openSync(logPath, 'a')
  const inherited = { ...process.env }
  for (const name of CONFIG_VARIABLES) delete inherited[name]
  // Built servers run on plain node, as in production; sources (a profile's) run through tsx.
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : []
  const child = spawn(process.execPath, [...nodeOptions, ...loader, script], {
    cwd: ROOT,
    env: { ...inherited, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
  })
  closeSync(log)
  let exit: string | undefined
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = String(code ?? signal)
      resolve()
    }),
  )
  const url = `http://127.0.0.1:${port}`
  const logTail = () => readFileSync(logPath, 'utf8').split('\n').slice(-20).join('\n')
  const deadline = Date.now() + STARTUP_TIMEOUT_MS
  for (;;) {
    if (exit !== undefined) throw new Error(`${label} exited (${exit}) while starting:\n${logTail()}`)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`${label} was not ready within ${STARTUP_TIMEOUT_MS / 1000} s:\n${logTail()}`)
    }
    const listening = readFileSync(logPath, 'utf8').match(/Server listening/g)?.length ?? 0
    if (listening >= listeningLines && (await answersHealth(url))) break
    await sleep(100)
  }
  const cpuSeconds = () => processTreeCpuSeconds(child.pid!)
  const untilIdle = async () => {
    const idleDeadline = performance.now() + IDLE_TIMEOUT_MS
    for (;;) {
      const before = cpuSeconds()
      await sleep(250)
      if (cpuSeconds() - before < 0.025 || performance.now() > idleDeadline) return
    }
  }
  await untilIdle()
  return {
    label,
    url,
    cpuSeconds,
    rssBytes: () => processTreeRssBytes(child.pid!),
    untilIdle,
    truncateLog: () => truncateSync(logPath, 0),
    problems: () =>
      readFileSync(logPath, 'utf8')
        .split('\n')
        .filter((line) => line !== '' && !/^\{"level":[123]0,/.test(line))
        .slice(-3),
    async stop() {
      if (exit !== undefined) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
      await exited
      clearTimeout(timer)
    },
  }
}

async function answersHealth(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) })
    await response.arrayBuffer()
    return response.ok
  } catch {
    return false
  }
}
