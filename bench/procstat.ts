import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

/** Clock ticks per second of the utime/stime fields in /proc/<pid>/stat. */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** Bytes per page, the unit of the rss field in /proc/<pid>/stat. */
const PAGE_BYTES = (() => {
  try {
    return Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096
  } catch {
    return 4096
  }
})()

interface ProcStat {
  ppid: number
  /** utime + stime of every thread of the process, in ticks. */
  ticks: number
  /** Resident memory, in pages. */
  rssPages: number
}

function readStat(pid: number): ProcStat | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // The command name (field 2) may hold spaces and parentheses; the fields after its last ')' do not.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), rssPages: Number(fields[21]) }
}

/** A process and all its living descendants: a cluster's primary and its workers, each with its threads. */
function processTree(root: number): ProcStat[] {
  const children = new Map<number, number[]>()
  const stats = new Map<number, ProcStat>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = readStat(Number(entry))
    if (!stat) continue
    stats.set(Number(entry), stat)
    const siblings = children.get(stat.ppid) ?? []
    siblings.push(Number(entry))
    children.set(stat.ppid, siblings)
  }
  const tree: ProcStat[] = []
  const pending = [root]
  while (pending.length > 0) {
    const pid = pending.pop()!
    const stat = stats.get(pid)
    if (stat) tree.push(stat)
    pending.push(...(children.get(pid) ?? []))
  }
  return tree
}

/** CPU seconds (user + system, all threads) used so far by a process and all its living descendants. */
export function processTreeCpuSeconds(root: number): number {
  return processTree(root).reduce((sum, stat) => sum + stat.ticks, 0) / TICKS_PER_SECOND
}

/** Resident memory of a process and all its living descendants, in bytes. */
export function processTreeRssBytes(root: number): number {
  return processTree(root).reduce((sum, stat) => sum + stat.rssPages, 0) * PAGE_BYTES
}
