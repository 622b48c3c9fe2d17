import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The parts of a V8 .cpuprofile (written by `node --cpu-prof`) that the summary reads. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

/** A time window on the monotonic clock that both V8's profiler and process.hrtime use, in µs. */
export interface Window {
  fromUs: number
  toUs: number
}

export const nowUs = () => Number(process.hrtime.bigint() / 1000n)

/** Where a function's time is counted: a package, a project file, a Node.js internal module, or V8 itself. */
function groupOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(V8 builtins and native code)'
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (inPackage) return inPackage[1]
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/')
  const inProject = /\/((?:src|bench)\/.*)$/.exec(url)
  return inProject ? inProject[1] : url
}

/** A script's path from its package or project folder: `yaml/dist/parse/lexer.js`, `src/http/app.ts`, `node:net`. */
function fileOf(url: string): string {
  return /(?:node_modules\/|\/(?=(?:src|bench)\/))(.*)$/.exec(url)?.[1] ?? url
}

/**
 * Samples of a thread that waits without using the CPU. V8 samples a thread blocked in
 * Atomics.wait as if it ran JavaScript: piscina's idle worker threads wait that way.
 */
const isIdle = (frame: { functionName: string; url: string }) =>
  frame.functionName === '(idle)' || (frame.functionName === 'atomicsWaitLoop' && frame.url.includes('/piscina/'))

/** Code of a package or of the project, as opposed to Node.js internals, V8 builtins and native code. */
const isOwnCode = (url: string) => /node_modules\/|\/(?:src|bench)\//.test(url)

interface Summary {
  file: string
  busyMs: number
  /** Self time of each package or file. */
  groups: Array<[string, number]>
  /** The same time, with that of Node.js internals and native code counted to the package or file that called them. */
  causes: Array<[string, number]>
  functions: Array<[string, number]>
}

/** Self time by group and by function, counting only samples inside `window` and never idle time. */
function summarize(file: string, window: Window): Summary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]))
  const parents = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id)
  /** The innermost package or project frame on the stack of a sample, if any. */
  const causeOf = (id: number): string | undefined => {
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const { url } = nodes.get(at)!
      if (isOwnCode(url)) return groupOf(url, '')
    }
    return undefined
  }
  const byCause = new Map<string, number>()
  const byGroup = new Map<string, number>()
  const byFunction = new Map<string, number>()
  let at = profile.startTime
  let busyUs = 0
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]
    // A sample stands for the interval up to the next one.
    const duration = profile.timeDeltas[i + 1] ?? 0
    if (at < window.fromUs || at > window.toUs) continue
    const frame = nodes.get(profile.samples[i])!
    if (isIdle(frame)) continue
    busyUs += duration
    const group = groupOf(frame.url, frame.functionName)
    byGroup.set(group, (byGroup.get(group) ?? 0) + duration)
    const cause = causeOf(profile.samples[i]) ?? group
    byCause.set(cause, (byCause.get(cause) ?? 0) + duration)
    const name = `${frame.functionName || '(anonymous)'} ${frame.url === '' ? '' : `${fileOf(frame.url)}:${frame.lineNumber + 1}`}`.trim()
    byFunction.set(name, (byFunction.get(name) ?? 0) + duration)
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, us]): [string, number] => [name, us / 1000])
  return { file, busyMs: busyUs / 1000, groups: top(byGroup, 15), causes: top(byCause, 15), functions: top(byFunction, 20) }
}

/**
 * A text summary of every profile in `dir` (one per thread: the main thread and each worker
 * thread), over `window`: where the CPU time went, by package or file and by function. With
 * `requests`, times are also given per request.
 */
export function summarizeProfiles(dir: string, window: Window, requests: number): string {
  const lines: string[] = []
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .sort()) {
    const summary = summarize(join(dir, name), window)
    if (summary.busyMs < 1) continue
    const share = (ms: number) =>
      `${((ms / summary.busyMs) * 100).toFixed(1).padStart(5)} %  ${((ms * 1000) / Math.max(1, requests)).toFixed(1).padStart(7)} µs/req`
    lines.push(`  ${name}: ${summary.busyMs.toFixed(0)} ms busy, ${((summary.busyMs * 1000) / Math.max(1, requests)).toFixed(1)} µs per request`)
    lines.push('    by the package or file that spent it (Node.js internals and native code counted to their caller):')
    for (const [cause, ms] of summary.causes) lines.push(`      ${share(ms)}  ${cause}`)
    lines.push('    self time by package or file:')
    for (const [group, ms] of summary.groups) lines.push(`      ${share(ms)}  ${group}`)
    lines.push('    self time by function:')
    for (const [fn, ms] of summary.functions) lines.push(`      ${share(ms)}  ${fn}`)
  }
  return lines.join('\n')
}
