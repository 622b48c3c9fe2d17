import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, test } from 'node:test'
import { differenceFromShown, shownAnswer } from '../scripts/docs.ts'
import { execute } from '../src/core/execute.ts'
import { operations } from '../src/operations/index.ts'
import { servedOperations } from '../src/served-operations.ts'
import { ROOMY_BUDGETS } from './helpers.ts'
import { ROOT } from './processes.ts'

/** The README and every document under docs/, by their paths from the root. */
const DOCUMENTS = new Map(
  [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ].map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]),
)
const README = DOCUMENTS.get('README.md')!
const OPERATIONS = DOCUMENTS.get('docs/operations.md')!

/**
 * Every `curl … /api/v1/<name> … -d '<body>'` of the documents, its body unquoted as the shell would,
 * with the `data` shown on the line after it, if any.
 */
const curlExamples = [
  ...[...DOCUMENTS.values()].join('\n').matchAll(/^curl -s localhost:3000\/api\/v1\/([a-z0-9-]+) .*-d '((?:[^']|'\\'')*)'$(?:\n# → "data": (.*)$)?/gm),
].map(([, name, body, shown]) => ({ name, body: body.replaceAll("'\\''", "'"), shown }))

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-')

describe('the README and the documents', () => {
  test('the operations reference has an entry for every operation of the registry with a worked example, and the README links to each', () => {
    for (const operation of operations) {
      const entry = new RegExp(
        `^### ${operation.name}\\n\\n.+\\n\\n\`\`\`sh\\n# .*\\ncurl -s localhost:3000/api/v1/${operation.name}[ ?'].*\\n# → "data": `,
        'm',
      )
      assert.match(OPERATIONS, entry, `${operation.name} has an entry with a curl example and its answer`)
      assert.ok(README.includes(`(docs/operations.md#${operation.name})`), `the README links to ${operation.name}'s entry`)
    }
  })

  test('every link between them leads to a file that exists, and to a heading it holds', () => {
    const broken: string[] = []
    for (const [path, text] of DOCUMENTS) {
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue
        const [file, anchor] = target.split('#')
        const linked = file === '' ? path : join(dirname(path), file)
        if (!existsSync(join(ROOT, linked))) broken.push(`${path}: ${target} (no such file)`)
        else if (anchor !== undefined) {
          const outsideCode = readFileSync(join(ROOT, linked), 'utf8').replace(/^```[\s\S]*?^```/gm, '')
          const headings = [...outsideCode.matchAll(/^#+ (.+)$/gm)].map(([, heading]) => anchorOf(heading))
          if (!headings.includes(anchor)) broken.push(`${path}: ${target} (no such heading)`)
        }
      }
    }
    assert.deepEqual(broken, [])
  })

  test('every curl example is a request its operation answers with success, with the data the document shows', async () => {
    assert.ok(curlExamples.filter(({ shown }) => shown !== undefined).length >= servedOperations.length)
    const differences: string[] = []
    for (const { name, body, shown } of curlExamples) {
      const operation = servedOperations.find((candidate) => candidate.name === name)
      assert.ok(operation, `a document calls ${name}, which is not served`)
      const data = await execute(operation, JSON.parse(body), ROOMY_BUDGETS)
      assert.ok('result' in data || 'results' in data, `${name} answers ${JSON.stringify(data).slice(0, 200)}`)
      const difference = shown === undefined ? undefined : differenceFromShown(shown, data)
      if (difference !== undefined) differences.push(`${name} ${body}: ${difference}`)
    }
    assert.deepEqual(differences, [], 'npm run docs writes the answers the service gives')
  })
})

describe('an answer as the reference shows it', () => {
  const answer = {
    result: 'x'.repeat(150),
    count: 3,
    items: Array.from({ length: 40 }, (_, index) => ({ index, name: `item ${index}` })),
    warnings: [],
  }

  test('is short: a long string and the end of the longest array are left out, marked …', () => {
    const shown = shownAnswer(answer)
    assert.ok(shown.length <= 320, shown)
    assert.match(shown, /^\{"result":"x{100}…","count":3,"items":\[\{"index":0,"name":"item 0"\},.*,…\],"warnings":\[\]\}$/)
    assert.equal(differenceFromShown(shown, answer), undefined)
  })

  test('stands for that answer only: a changed value, a missing or an extra member, or a string that does not start alike', () => {
    const shown = shownAnswer(answer)
    assert.ok(differenceFromShown(shown, { ...answer, count: 4 }))
    assert.ok(differenceFromShown(shown, { ...answer, result: 'y'.repeat(150) }))
    assert.ok(differenceFromShown(shown, { ...answer, extra: true }))
    assert.ok(differenceFromShown(shown, { result: answer.result, count: 3, items: answer.items }))
    assert.ok(differenceFromShown(shown, { ...answer, items: answer.items.slice(0, 1) }))
    assert.ok(differenceFromShown('{"result":"…","version":4}', { result: 1, version: 4 }), 'a "…" stands for a string')
  })

  test('reads … where a value differs from call to call as any value, and as the rest of an object or array', () => {
    assert.equal(differenceFromShown('{"result":"…","results":["…"],"n":…}', { result: 'a', results: ['a'], n: 1.5 }), undefined)
    assert.equal(differenceFromShown('{"a":[1,…],…}', { a: [1, 2, 3], b: { c: 'd' } }), undefined)
    assert.equal(differenceFromShown('{"a":"x…y"}', { a: 'x…y' }), undefined, 'a … inside a string ends it only at the end')
    assert.ok(differenceFromShown('{"a":"x…y"}', { a: 'x…yz' }))
  })
})
