import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { ROOT } from '../processes.ts'

/**
 * `npm test` runs the tiers its script names (test:units, test:core…), each a glob of test files: a
 * test file in a folder no tier reads would never run, and one in two tiers would run twice.
 */
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
const tierNames = (script: string): string[] => script.match(/(?<=npm run )test:[a-z0-9-]+/g) ?? []
const globsOf = (tier: string) => [...scripts[tier].matchAll(/'([^']+\.test\.ts)'/g)].map(([, glob]) => glob)

/** A glob as the test runner reads these: `**` any folders, `*` any name within one. */
const globPattern = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '\u0000')
      .replace(/\*/g, '[^/]*')
      .replace(/\u0000/g, '(?:.*/)?')}$`,
  )

const testFiles = ['src', 'test'].flatMap((folder) =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .map((path) => `${folder}/${path}`)
    .filter((path) => path.endsWith('.test.ts') && !path.includes('/fixtures/')),
)

describe("npm test's tiers", () => {
  test('every test file is in exactly one tier that npm test runs', () => {
    const tiers = tierNames(scripts.test)
    assert.ok(tiers.length > 1, scripts.test)
    const tiersOf = new Map(testFiles.map((file) => [file, tiers.filter((tier) => globsOf(tier).some((glob) => globPattern(glob).test(file)))]))
    assert.deepEqual(
      [...tiersOf].filter(([, found]) => found.length !== 1),
      [],
      'files in no tier, or in more than one',
    )
  })

  test('test:unit runs tiers of npm test, and the globs read as the runner reads them', () => {
    for (const tier of tierNames(scripts['test:unit'])) assert.ok(tierNames(scripts.test).includes(tier), tier)
    assert.ok(globPattern('src/**/*.test.ts').test('src/operations/base64/base64.test.ts'))
    assert.ok(globPattern('src/**/*.test.ts').test('src/a.test.ts'))
    assert.ok(!globPattern('test/*.test.ts').test('test/core/validate.test.ts'))
  })

  test('the units, which share one process, set where calls run only inside a suite', () => {
    const leaking = testFiles.filter((file) => file.startsWith('src/') && /^setOffloadPolicy\(/m.test(readFileSync(join(ROOT, file), 'utf8')))
    assert.deepEqual(leaking, [], 'use runCallsInProcess() of test/in-process.ts inside the describe')
  })

  test('CI runs every tier of npm test once on the floor, and on the LTS only tiers of npm test', () => {
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8')
    const tiersRunOn = (node: string) => [...ci.matchAll(new RegExp(`run_tiers ${node} (test:[^;\\n]+)`, 'g'))].flatMap(([, tiers]) => tiers.split(' '))
    assert.deepEqual(tiersRunOn('floor').sort(), tierNames(scripts.test).sort())
    const lts = tiersRunOn('LTS')
    assert.ok(lts.length > 0, 'the LTS lanes in .ci/run')
    for (const tier of lts) assert.ok(tierNames(scripts.test).includes(tier), tier)
  })
})
