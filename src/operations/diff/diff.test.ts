import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { applyPatch } from 'diff'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { diff, MAX_EDITS } from './index.ts'

const run = (input: Record<string, unknown>) => execute(diff, input, { timeBudgetMs: 60_000 })
type Change = { value: string; added: boolean; removed: boolean }
type Hunk = { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }

const workDirectory = mkdtempSync(join(tmpdir(), 'devutils-diff-'))
after(() => {
  rmSync(workDirectory, { recursive: true, force: true })
  return closeWorkerPool()
})

/** The hunks (from the first `@@` on) of GNU diff's unified output for two texts. */
function gnuHunks(oldText: string, newText: string, context: number): string {
  writeFileSync(join(workDirectory, 'old'), oldText)
  writeFileSync(join(workDirectory, 'new'), newText)
  try {
    execFileSync('diff', [`-U${context}`, 'old', 'new'], { cwd: workDirectory })
    return ''
  } catch (error) {
    const output = String((error as { stdout: Buffer }).stdout)
    return output.slice(output.indexOf('@@'))
  }
}

/** Applies a unified diff with `git apply` (outside any repository it works as a stricter `patch`; hunks without context need --unidiff-zero). */
function gitApply(oldText: string, patchText: string): string {
  const file = join(workDirectory, 'f.txt')
  writeFileSync(file, oldText)
  writeFileSync(join(workDirectory, 'change.patch'), patchText)
  execFileSync('git', ['apply', '--unidiff-zero', '--whitespace=nowarn', 'change.patch'], { cwd: workDirectory, stdio: ['ignore', 'ignore', 'pipe'] })
  return readFileSync(file, 'utf8')
}

const kept = (changes: Change[], side: 'added' | 'removed') =>
  changes
    .filter((change) => !change[side])
    .map((change) => change.value)
    .join('')

/** Texts built from a few lines, so that generated pairs share lines and get real hunks. */
const linesText = fc
  .array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta', '', '  indented', 'tab\there', 'ünïcödé', '😀 emoji', 'x'), { maxLength: 25 })
  .chain((lines) => fc.constantFrom('', '\n').map((end) => lines.join('\n') + (lines.length > 0 ? end : '')))

const wordsText = fc
  .array(fc.constantFrom('the', 'quick', 'brown', 'fox', ' ', '  ', '\n', ',', '.', 'Привет', '世界', 'naïve', '😀', 'e\u0301'), { maxLength: 30 })
  .map((parts) => parts.join(''))

describe('diff lines: the unified format', () => {
  test('hunk headers as GNU diff writes them: counts of 1 left out, empty ranges after the line before (diff -U0, -U1, -U3)', async () => {
    const cases: Array<[string, string]> = [
      ['1\n2\n3\n', '1\n3\n'],
      ['1\n2\n3\n', '1\n2\n3\n4\n'],
      ['1\n2\n3\n', '0\n1\n2\n3\n'],
      ['1\n2\n3\n', ''],
      ['', 'x\n'],
      ['1\n2\n3', '1\n2\n3\n'],
      ['a\nb\nc\nd\ne\nf\ng\nh\ni\n', 'a\nB\nc\nd\ne\nf\ng\nH\ni\n'],
      ['a\nb', 'a\nc'],
    ]
    for (const context of [0, 1, 3]) {
      for (const [input, compareTo] of cases) {
        const result = (await run({ input, compareTo, context })).result as string
        const ours = result === '' ? '' : result.slice(result.indexOf('@@'))
        assert.equal(ours, gnuHunks(input, compareTo, context), `-U${context} of ${JSON.stringify([input, compareTo])}`)
      }
    }
  })

  test('the example of the GNU manual’s unified format: `@@ -1,3 +1,4 @@`, and the headers name the files', async () => {
    const data = await run({ input: 'a\nb\nc\n', compareTo: 'a\nb\nB\nc\n', oldName: 'a/x.txt', newName: 'b/x.txt' })
    assert.equal(data.result, '--- a/x.txt\n+++ b/x.txt\n@@ -1,3 +1,4 @@\n a\n b\n+B\n c\n')
    assert.deepEqual(data.hunks, [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, lines: [' a', ' b', '+B', ' c'] }])
  })

  test('`\\ No newline at end of file` follows a last line without one, on either side', async () => {
    const data = await run({ input: 'a\nb', compareTo: 'a\nb\n' })
    assert.equal(data.result, '--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n')
  })

  test('identical texts give no diff, no hunks, one kept change', async () => {
    assert.deepEqual(await run({ input: 'same\n', compareTo: 'same\n' }), {
      result: '',
      mode: 'lines',
      additions: 0,
      deletions: 0,
      hunks: [],
      changes: [{ value: 'same\n', added: false, removed: false }],
    })
    assert.deepEqual((await run({ input: '', compareTo: '' })).changes, [])
  })

  test('without context, a deleted last line without a line end is written as GNU diff -U0 writes it', async () => {
    const input = 'alpha\ngamma\ngamma'
    const { result } = await run({ input, compareTo: 'delta\nalpha\ngamma\n', context: 0 })
    assert.equal(result, '--- old\n+++ new\n@@ -0,0 +1 @@\n+delta\n@@ -3 +3,0 @@\n-gamma\n\\ No newline at end of file\n')
    assert.equal(applyPatch(input, result as string), 'delta\nalpha\ngamma\n')
  })

  test('CRLF line ends are kept in the lines, so the diff applies to the file as it is', async () => {
    const data = await run({ input: 'a\r\nb\r\n', compareTo: 'a\r\nc\r\n', oldName: 'a/f.txt', newName: 'b/f.txt' })
    assert.deepEqual((data.hunks as Hunk[])[0].lines, [' a\r', '-b\r', '+c\r'])
    assert.equal(gitApply('a\r\nb\r\n', data.result as string), 'a\r\nc\r\n')
  })

  test('generated texts: git apply and jsdiff’s applyPatch turn input into compareTo, and the hunks agree with the text (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(linesText, linesText, fc.integer({ min: 0, max: 4 }), async (input, compareTo, context) => {
        const data = await run({ input, compareTo, context, oldName: 'a/f.txt', newName: 'b/f.txt' })
        const result = data.result as string
        assert.equal(applyPatch(input, result), compareTo)
        // Without context, git apply --unidiff-zero takes a deleted last line that has no line end
        // with the line end of the line before it; GNU patch applies the same hunk (which GNU
        // diff -U0 writes byte for byte) as written.
        const gitMisreads = context === 0 && !input.endsWith('\n') && input !== ''
        if (result !== '' && !gitMisreads) assert.equal(gitApply(input, result), compareTo)
        for (const hunk of data.hunks as Hunk[]) {
          const header = `@@ -${hunk.oldLines === 1 ? hunk.oldStart : `${hunk.oldStart},${hunk.oldLines}`} +${hunk.newLines === 1 ? hunk.newStart : `${hunk.newStart},${hunk.newLines}`} @@`
          assert.ok(result.includes(`${header}\n${hunk.lines.join('\n')}\n`), header)
          assert.equal(hunk.lines.filter((line) => line[0] === ' ' || line[0] === '-').length, hunk.oldLines)
          assert.equal(hunk.lines.filter((line) => line[0] === ' ' || line[0] === '+').length, hunk.newLines)
        }
        const changes = data.changes as Change[]
        assert.equal(kept(changes, 'added'), input)
        assert.equal(kept(changes, 'removed'), compareTo)
        const lineCount = (values: Change[]) => values.reduce((sum, change) => sum + change.value.split('\n').length - (change.value.endsWith('\n') ? 1 : 0), 0)
        assert.equal(data.additions, lineCount(changes.filter((change) => change.added)))
        assert.equal(data.deletions, lineCount(changes.filter((change) => change.removed)))
      }),
      { numRuns: 120 },
    )
  })
})

describe('diff words and chars: git’s word-diff markup', () => {
  test('changed words are wrapped in [-…-] and {+…+}; whitespace alone between two changes joins them', async () => {
    assert.equal((await run({ input: 'the quick brown fox', compareTo: 'the slow red fox', mode: 'words' })).result, 'the [-quick brown-]{+slow red+} fox')
    assert.equal((await run({ input: 'a b c', compareTo: 'a c', mode: 'words' })).result, 'a [-b -]c')
    assert.equal((await run({ input: 'keep', compareTo: 'keep going', mode: 'words' })).result, 'keep{+ going+}')
  })

  test('words of any script are whole words (UAX #29), not letters', async () => {
    const data = await run({ input: 'Привет мир', compareTo: 'Привет миру', mode: 'words' })
    assert.equal(data.result, 'Привет [-мир-]{+миру+}')
    assert.deepEqual([data.additions, data.deletions], [1, 1])
    assert.equal((await run({ input: 'naïve café', compareTo: 'naive café', mode: 'words' })).result, '[-naïve-]{+naive+} café')
  })

  test('chars are code points: an emoji is never split into halves', async () => {
    const data = await run({ input: 'a😀b', compareTo: 'a😁b', mode: 'chars' })
    assert.equal(data.result, 'a[-😀-]{+😁+}b')
    assert.deepEqual([data.additions, data.deletions], [1, 1])
  })

  for (const mode of ['words', 'chars']) {
    test(`${mode}: kept and removed pieces make input, kept and added make compareTo; the markup shows exactly them (fast-check)`, async () => {
      await fc.assert(
        fc.asyncProperty(wordsText, wordsText, async (input, compareTo) => {
          const data = await run({ input, compareTo, mode })
          const changes = data.changes as Change[]
          assert.equal(kept(changes, 'added'), input)
          assert.equal(kept(changes, 'removed'), compareTo)
          const marked = changes.map((change) => (change.added ? `{+${change.value}+}` : change.removed ? `[-${change.value}-]` : change.value)).join('')
          assert.equal(data.result, marked)
          for (let i = 1; i < changes.length; i++) {
            assert.ok(!(changes[i].added && changes[i - 1].added) && !(changes[i].removed && changes[i - 1].removed), 'runs are merged')
          }
          if (input === compareTo) assert.equal(data.result, input)
        }),
        { numRuns: 200 },
      )
    })
  }
})

describe('diff: bounds', () => {
  test(`texts that differ by more than ${MAX_EDITS} tokens are LIMIT_EXCEEDED`, async () => {
    const lines = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${i}\n`).join('')
    await expectRefusal(run({ input: lines(2001, 'a'), compareTo: lines(2001, 'b') }), {
      code: 'LIMIT_EXCEEDED',
      message: /differ by more than 4000 lines/,
      details: { limit: MAX_EDITS },
    })
    assert.equal((await run({ input: lines(1000, 'a'), compareTo: lines(1000, 'b') })).deletions, 1000, 'within the bound')
  })

  test('a diff that would pass the time budget is LIMIT_EXCEEDED, not a hang', () => {
    const rounds = 'ab'.repeat(20_000)
    const fields = { input: rounds, compareTo: `${rounds.slice(1)}a`.replaceAll('b', 'c'), mode: 'chars' }
    const started = Date.now()
    assert.throws(() => diff.run(validate(diff.input, fields), { timeBudgetMs: 200 }), { code: 'LIMIT_EXCEEDED', message: /within the time budget \(160 ms/ })
    assert.ok(Date.now() - started < 2000)
  })

  test('sizes, modes, context and names are checked by the schema (400)', async () => {
    await expectRefusal(run({ input: 'a', compareTo: 'b', oldName: 'x\ny' }), { code: 'VALIDATION_ERROR', field: 'oldName' })
    await expectRefusal(run({ input: 'a', compareTo: 'b', context: -1 }), { code: 'VALIDATION_ERROR', field: 'context' })
    await expectRefusal(run({ input: 'a', compareTo: 'b', mode: 'sentences' }), { code: 'VALIDATION_ERROR', field: 'mode' })
    await expectRefusal(run({ input: 'a' }), { code: 'VALIDATION_ERROR', field: 'compareTo' })
    await expectRefusal(run({ input: 'a'.repeat(1024 * 1024 + 1), compareTo: '' }), { code: 'VALIDATION_ERROR', field: 'input' })
  })

  test('a lone surrogate in either text is refused (422)', async () => {
    await expectRefusal(run({ input: 'a', compareTo: 'b\ud800' }), { code: 'INVALID_INPUT', position: 1 })
  })

  test('offload: all but small texts go to a worker, sooner for characters', () => {
    const offloads = (input: Record<string, unknown>) => diff.offload?.(validate(diff.input, input))
    assert.equal(offloads({ input: 'a'.repeat(200), compareTo: 'b'.repeat(200) }), false)
    assert.equal(offloads({ input: 'a'.repeat(300), compareTo: 'b'.repeat(300) }), true)
    assert.equal(offloads({ input: 'a'.repeat(200), compareTo: 'b'.repeat(200), mode: 'chars' }), true)
  })

  test('large texts are diffed on a worker with the same answer as in process', async () => {
    const input = Array.from({ length: 3000 }, (_, i) => `line ${i}\n`).join('')
    const compareTo = input.replace('line 1500\n', 'changed\n').replace('line 20\n', '')
    const fields = { input, compareTo, context: 2 }
    const data = await run(fields)
    assert.deepEqual(data, diff.run(validate(diff.input, fields)))
    assert.equal((data.hunks as Hunk[]).length, 2)
    assert.deepEqual([data.additions, data.deletions], [1, 2])
  })
})
