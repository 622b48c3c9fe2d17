/**
 * The long fuzz: hostile requests derived from every operation's schema and examples, sent to the
 * built service (the script builds it first), for as long as asked.
 *
 *   npm run fuzz -- --seconds 600                 every operation, an equal share of the time each
 *   npm run fuzz -- --seconds 60 --only jq,regex  some operations
 *   npm run fuzz -- --seed 123                    the same requests as an earlier run
 *   npm run fuzz -- --only jq --replay=S:P       one failure again, as a report prints it
 *   npm run fuzz -- --save /tmp/found            each failing body written to a file there, to send with curl
 *
 * Exits 1 if any guarantee broke; each failure is printed with the command that replays it.
 */
import { randomInt } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { servedOperations } from '../src/served-operations.ts'
import { describeReport, fuzzOperation } from '../test/fuzz/campaign.ts'
import { FuzzService } from '../test/fuzz/service.ts'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    seed: { type: 'string' },
    only: { type: 'string' },
    lanes: { type: 'string', default: '4' },
    replay: { type: 'string' },
    save: { type: 'string' },
  },
})

const seed = values.seed === undefined ? randomInt(2 ** 31) : Number(values.seed)
const names = values.only?.split(',').map((name) => name.trim())
const unknown = names?.filter((name) => !servedOperations.some((operation) => operation.name === name)) ?? []
if (unknown.length > 0) throw new Error(`No operation named ${unknown.join(', ')}`)
const chosen = names ? servedOperations.filter((operation) => names.includes(operation.name)) : servedOperations
const [replaySeed, replayPath] = values.replay?.split(':') ?? []
const replay = values.replay === undefined ? undefined : { seed: Number(replaySeed), path: replayPath }
const durationMs = (Number(values.seconds) * 1000) / chosen.length

console.log(`fuzz: seed ${seed}, ${chosen.length} operations, ${(durationMs / 1000).toFixed(1)} s each, ${values.lanes} in flight`)
let service = await FuzzService.start()
const failed: string[] = []
let worstPeak = 0
for (const operation of chosen) {
  service = await service.renewedIfSpent()
  const report = await fuzzOperation(service, operation, servedOperations, {
    seed,
    lanes: Number(values.lanes),
    ...(replay ? { replay, numRuns: 1 } : { durationMs }),
  })
  worstPeak = Math.max(worstPeak, report.peakRssBytes)
  console.log(describeReport(report))
  for (const failure of report.failures) console.log(`  FAILED ${failure.replaceAll('\n', '\n  ')}`)
  if (report.failures.length > 0) failed.push(operation.name)
  if (values.save !== undefined) {
    mkdirSync(values.save, { recursive: true })
    for (const { name, text } of report.failedBodies) writeFileSync(path.join(values.save, name), text)
  }
}
await service.stop()
console.log(
  `peak RSS over all operations ${(worstPeak / 2 ** 20).toFixed(0)} MiB; ${failed.length === 0 ? 'no failures' : `failures in ${failed.join(', ')}`} (seed ${seed})`,
)
process.exitCode = failed.length === 0 ? 0 : 1
