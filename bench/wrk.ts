import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LoadJob, LoadResult } from './load.ts'
import { processTreeCpuSeconds } from './procstat.ts'

/** Whether Debian's `wrk` is on the PATH (`.ci/run` installs it). */
export function wrkInstalled(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined
}

const UNITS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 }

/** `1.23ms`, `850.00us`, `1.01s` in milliseconds. */
function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text)
  if (!match) throw new Error(`wrk printed a latency it cannot be read from: ${text}`)
  return Number(match[1]) * UNITS[match[2]]
}

/**
 * Saturating load from wrk, a C program in a process of its own (one thread, `connections`
 * connections kept busy), for the same jobs as the node load generator's closed loop: it sends
 * more requests a second than a Node client can, so the server, not the client, is the limit.
 */
export class WrkLoader {
  private readonly dir = mkdtempSync(join(tmpdir(), 'devutils-wrk-'))

  async run(job: LoadJob): Promise<LoadResult> {
    if (job.kind !== 'closed' || job.requests.length !== 1 || job.amount !== undefined) throw new Error('wrk runs closed-loop jobs of one request for a time')
    const [request] = job.requests
    const script = join(this.dir, 'request.lua')
    const lines = [`wrk.method = ${JSON.stringify(request.method)}`]
    if (request.body !== undefined) {
      lines.push(`wrk.body = ${JSON.stringify(request.body)}`, 'wrk.headers["Content-Type"] = "application/json"')
    }
    writeFileSync(script, `${lines.join('\n')}\n`)
    const seconds = Math.max(1, Math.round(job.seconds))
    const child = spawn('wrk', ['-t1', `-c${job.connections}`, `-d${seconds}s`, '--latency', '-s', script, `${job.url}${request.path}`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk
    })
    // wrk's CPU time, read from /proc while it runs (it is gone once it has exited).
    let cpuSeconds = 0
    const sampler = setInterval(() => {
      try {
        cpuSeconds = processTreeCpuSeconds(child.pid!)
      } catch {
        // It has just exited.
      }
    }, 100)
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    clearInterval(sampler)
    if (code !== 0) throw new Error(`wrk exited with ${code}: ${output}`)
    return parseWrk(output, cpuSeconds)
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }
}

function parseWrk(output: string, cpuSeconds: number): LoadResult {
  const totals = /(\d+) requests in ([\d.]+)(us|ms|s|m),/.exec(output)
  if (!totals) throw new Error(`wrk printed no totals: ${output}`)
  const responses = Number(totals[1])
  const seconds = milliseconds(`${totals[2]}${totals[3]}`) / 1000
  const bad = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0)
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)
  const errors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0
  const percentile = (label: string) => {
    const match = new RegExp(`^\\s*${label}%\\s+(\\S+)`, 'm').exec(output)
    return match ? milliseconds(match[1]) : Number.NaN
  }
  const thread = /Latency\s+(\S+)\s+\S+\s+(\S+)/.exec(output)
  return {
    responses,
    ok: responses - bad,
    seconds,
    latencyMs: {
      p50: percentile('50'),
      p99: percentile('99'),
      max: thread ? milliseconds(thread[2]) : Number.NaN,
      mean: thread ? milliseconds(thread[1]) : Number.NaN,
    },
    statuses: bad > 0 ? { '2xx': responses - bad, 'not 2xx or 3xx': bad } : { '2xx': responses },
    errors,
    ...(errors > 0 && { firstError: socket?.[0] }),
    cpuSeconds,
  }
}
