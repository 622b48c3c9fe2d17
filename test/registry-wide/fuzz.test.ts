import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { servedOperations } from '../../src/served-operations.ts'
import { describeReport, fuzzOperation } from '../fuzz/campaign.ts'
import { FUZZ_BOUNDS, FuzzService } from '../fuzz/service.ts'

/** The slice `npm test` runs: always the same requests. `npm run fuzz` runs longer, from a random seed. */
const SEED = 20_261_128
const LANES = 4
const RUNS_PER_LANE = 15

describe('fuzz: hostile requests derived from every operation’s schema and examples, to the built service', {
  skip: process.platform !== 'linux' && 'memory is read from /proc',
}, () => {
  let service: FuzzService
  let peakRssBytes = 0
  before(async () => {
    service = await FuzzService.start()
  })
  after(() => service?.stop())

  for (const operation of servedOperations) {
    test(`${operation.name}: every answer an envelope in time, never a 500; /health prompt; memory bounded; the process alive`, async (t) => {
      service = await service.renewedIfSpent()
      const report = await fuzzOperation(service, operation, servedOperations, { seed: SEED, lanes: LANES, numRuns: RUNS_PER_LANE })
      peakRssBytes = Math.max(peakRssBytes, report.peakRssBytes)
      t.diagnostic(describeReport(report))
      assert.equal(report.failures.length, 0, `${operation.name}:\n${report.failures.join('\n\n')}`)
    })
  }

  test('at the end the process is alive, and its peak RSS over the whole run was within the bound', () => {
    assert.equal(service.ended, undefined)
    assert.ok(peakRssBytes <= FUZZ_BOUNDS.rssBytes, `peak RSS ${peakRssBytes} bytes`)
  })
})
