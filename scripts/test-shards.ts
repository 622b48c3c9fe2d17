/**
 * Runs `node --import tsx --test <arguments>` as one shard per core, side by side (the runner's own
 * `--test-shard`, which deals the files out in turn). A tier whose files share one process
 * (`--experimental-test-isolation=none`) keeps one core busy; its shards keep them all busy, each
 * loading the modules it needs once.
 *
 * The first shard writes as it goes; the others' output follows when all have ended, shard by
 * shard. Exits 1 if any shard failed.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { availableParallelism } from 'node:os'

const testArguments = process.argv.slice(2)
const shards = availableParallelism()

interface ShardEnd {
  passed: boolean
  output: string
}

async function runShard(index: number): Promise<ShardEnd> {
  const first = index === 1
  const shard = spawn(process.execPath, ['--import', 'tsx', '--test', `--test-shard=${index}/${shards}`, ...testArguments], {
    stdio: ['ignore', first ? 'inherit' : 'pipe', first ? 'inherit' : 'pipe'],
  })
  const output: Buffer[] = []
  shard.stdout?.on('data', (chunk: Buffer) => output.push(chunk))
  shard.stderr?.on('data', (chunk: Buffer) => output.push(chunk))
  const [code, signal] = (await once(shard, 'close')) as [number | null, NodeJS.Signals | null]
  const end = code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`
  return { passed: code === 0, output: `${Buffer.concat(output).toString()}shard ${index} of ${shards} ${end}\n` }
}

const ends = await Promise.all(Array.from({ length: shards }, (_, i) => runShard(i + 1)))
for (const { output } of ends) process.stdout.write(output)
process.exitCode = ends.every((end) => end.passed) ? 0 : 1
