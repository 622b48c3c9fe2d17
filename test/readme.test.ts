import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { execute } from '../src/core/execute.ts'
import { operations } from '../src/operations/index.ts'
import { servedOperations } from '../src/served.ts'
import { ROOT } from './processes.ts'

const README = readFileSync(join(ROOT, 'README.md'), 'utf8')

/** Every `curl … /api/v1/<name> … -d '<body>'` of the README, its body unquoted as the shell would. */
const curlExamples = [...README.matchAll(/^curl -s localhost:3000\/api\/v1\/([a-z0-9-]+) .*-d '((?:[^']|'\\'')*)'$/gm)].map(([, name, body]) => ({
  name,
  body: body.replaceAll("'\\''", "'"),
}))

describe('the README', () => {
  test('lists every operation of the registry with a worked example', () => {
    for (const operation of operations) {
      assert.match(README, new RegExp(`^\\*\\*${operation.name}\\*\\* — `, 'm'), `${operation.name} has an entry`)
      const example = new RegExp(`localhost:3000/api/v1/${operation.name}[ ?'][\\s\\S]*?\\n# → "data": `)
      assert.match(README, example, `${operation.name} has a curl example and its answer`)
    }
  })

  test('every curl example is a request its operation answers with success', async () => {
    assert.ok(curlExamples.length >= operations.length)
    for (const { name, body } of curlExamples) {
      const operation = servedOperations.find((candidate) => candidate.name === name)
      assert.ok(operation, `the README calls ${name}, which is not served`)
      const data = await execute(operation, JSON.parse(body), { timeBudgetMs: 60_000 })
      assert.ok('result' in data || 'results' in data, `${name} answers ${JSON.stringify(data).slice(0, 200)}`)
    }
  })
})
