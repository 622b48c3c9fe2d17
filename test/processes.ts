import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import net from 'node:net'
import { delimiter, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export interface Spawned {
  child: ChildProcess
  output: () => string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** The niceness of each thread of a process (Linux): field 19 of /proc/<pid>/task/<tid>/stat, counted after the command's closing parenthesis. */
export function threadNiceness(pid: number | 'self'): Array<{ threadId: number; nice: number }> {
  return readdirSync(`/proc/${pid}/task`).map((threadId) => {
    const stat = readFileSync(`/proc/${pid}/task/${threadId}/stat`, 'utf8')
    return { threadId: Number(threadId), nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) }
  })
}

/** Spawns a process and resolves once its output matches `ready` (or rejects after `timeoutMs`). */
export function spawnUntil(
  command: string,
  args: string[],
  ready: RegExp,
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string; detached?: boolean } = {},
): Promise<Spawned> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached,
  })
  let output = ''
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${command} did not become ready within ${options.timeoutMs ?? 60_000} ms:\n${output}`))
    }, options.timeoutMs ?? 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk
      if (ready.test(output)) {
        clearTimeout(timer)
        resolve({ child, output: () => output, exited })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    exited.then(({ code, signal }) => {
      clearTimeout(timer)
      reject(new Error(`${command} exited (${code ?? signal}) before it was ready:\n${output}`))
    })
  })
}

/**
 * Starts the real service on a free port, as `npm start` does: the build, with plain node. With
 * `npmStart`, through `npm start` itself (npm, then the node it starts, from this test's Node.js).
 * `detached` (the default with npmStart) starts it in a process group of its own, as a supervisor starts
 * a service, so that a test can signal the whole group as systemd and `kill -- -PGID` do.
 */
export async function startService(
  env: NodeJS.ProcessEnv = {},
  { npmStart = false, detached = npmStart }: { npmStart?: boolean; detached?: boolean } = {},
): Promise<Spawned & { port: number; url: string }> {
  const port = await freePort()
  const [command, args] = npmStart ? ['npm', ['start']] : [process.execPath, ['dist/server.js']]
  const spawned = await spawnUntil(command, args, /Server listening|starting workers[\s\S]*Server listening/, {
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...(npmStart && { PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}` }),
      ...env,
    },
    detached,
  })
  return { ...spawned, port, url: `http://127.0.0.1:${port}` }
}

/** Starts a throw-away redis-server on a free port, with no persistence. */
export async function startRedis(port?: number): Promise<Spawned & { port: number; url: string }> {
  const redisPort = port ?? (await freePort())
  const spawned = await spawnUntil(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    /Ready to accept connections/,
    { timeoutMs: 20_000 },
  )
  return { ...spawned, port: redisPort, url: `redis://127.0.0.1:${redisPort}` }
}
