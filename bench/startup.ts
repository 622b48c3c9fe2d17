/**
 * What a user waits for and pays before any work: a server's start until it is ready, a one-shot
 * command, and `devutils mcp` until it answers. Each runs the build, as `npm start`, the `devutils`
 * command and an MCP client start it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { freePort, ROOT } from '../test/processes.ts'

/** What `npm start` runs. */
export const SERVER_SCRIPT = 'dist/server.js'
/** The `devutils` command. */
export const CLI = 'bin/devutils.js'

/**
 * Reports the process's peak resident memory on standard error as it exits, for commands whose
 * own memory is measured: loaded before the command with --import, it costs it one tiny module.
 * Linux's VmHWM is the peak of the process's own memory; getrusage's maxRSS (the fallback elsewhere)
 * keeps, across the exec that starts a child, the peak of the process that spawned it: the bench's own.
 */
const REPORT_PEAK_RSS = `data:text/javascript,import { readFileSync } from 'node:fs'; process.on('exit', () => { let kib = process.resourceUsage().maxRSS; try { kib = Number(/VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) } catch {} process.stderr.write('peak-rss-kib=' + kib + '\\n') })`

/**
 * Milliseconds from spawning `npm start`'s command until GET /ready answers 200, polled every 2 ms;
 * or, given a reference server's script, until it answers `path`.
 */
export async function timeServerReady(root = ROOT, script = SERVER_SCRIPT, path = '/ready'): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  })
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it was ready`)
      if (performance.now() - started > 30_000) throw new Error('the server was not ready within 30 s')
      if (await answers200(`http://127.0.0.1:${port}${path}`)) return performance.now() - started
      await sleep(2)
    }
  } finally {
    await stopped(child)
  }
}

async function answers200(url: string): Promise<boolean> {
  try {
    const response = await fetch(url)
    await response.arrayBuffer()
    return response.status === 200
  } catch {
    return false
  }
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  await exited
}

export interface CommandRun {
  wallMs: number
  peakRssBytes: number
}

/**
 * One run of the `devutils` command: its wall time (without the memory report), then, in a second
 * run, its peak resident memory. Fails unless it exits 0 with `expected` on standard output.
 */
export async function timeCommand(args: string[], expected: string, root = ROOT): Promise<CommandRun> {
  const started = performance.now()
  const plain = await run([CLI, ...args], root)
  const wallMs = performance.now() - started
  const reported = await run(['--import', REPORT_PEAK_RSS, CLI, ...args], root)
  for (const { stdout, code } of [plain, reported]) {
    if (code !== 0 || stdout !== expected) throw new Error(`devutils ${args.join(' ')} exited ${code} with ${JSON.stringify(stdout)}`)
  }
  const peak = /peak-rss-kib=(\d+)/.exec(reported.stderr)
  if (!peak) throw new Error('the command did not report its memory')
  return { wallMs, peakRssBytes: Number(peak[1]) * 1024 }
}

async function run(args: string[], root: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, stdout, stderr }
}

/** Milliseconds from spawning `devutils mcp` until its answer to `initialize` arrives. */
export async function timeMcpInitialize(root = ROOT): Promise<number> {
  const started = performance.now()
  const child = spawn(process.execPath, [CLI, 'mcp'], { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] })
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'devutils-bench', version: '1' } },
  }
  child.stdin.write(`${JSON.stringify(initialize)}\n`)
  let stdout = ''
  try {
    for await (const chunk of child.stdout) {
      stdout += chunk
      if (stdout.includes('\n')) break
    }
    const answer = JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as { id?: number; result?: unknown }
    if (answer.id !== 1 || answer.result === undefined) throw new Error(`devutils mcp answered ${stdout}`)
    return performance.now() - started
  } finally {
    const exited = once(child, 'exit')
    child.stdin.end()
    await exited
  }
}
