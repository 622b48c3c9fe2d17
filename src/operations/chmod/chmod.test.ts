import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { chmod } from './index.ts'

const run = (input: Record<string, unknown>) => execute(chmod, input)
const resultOf = async (input: Record<string, unknown>) => (await run(input)).result as string

const workDirectory = mkdtempSync(join(tmpdir(), 'devutils-chmod-'))
after(() => rmSync(workDirectory, { recursive: true, force: true }))
let batches = 0

interface Case {
  start: number
  expression: string
  umask: string
  directory: boolean
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`

/**
 * The modes GNU chmod gives, read with fs.statSync: each case gets a file or a directory of its own,
 * and one shell sets its starting mode (five digits, so that a directory's set-ID bits are cleared
 * too) and runs chmod under the case's umask. An expression GNU refuses gives `invalid`. A who-less
 * change the umask blocks makes GNU chmod exit 1 after changing the mode, so its status is not what tells.
 */
function gnuModes(cases: Case[]): Array<number | 'invalid'> {
  const batch = join(workDirectory, String(batches++))
  mkdirSync(batch)
  const paths = cases.map(({ directory }, index) => {
    const path = join(batch, String(index))
    if (directory) mkdirSync(path)
    else writeFileSync(path, '')
    return path
  })
  const script = cases
    .map(({ start, expression, umask }, index) => {
      const path = paths[index]
      return `chmod 0${start.toString(8).padStart(4, '0')} ${path}; if (umask ${umask}; chmod -- ${quote(expression)} ${path}) 2>&1 | grep -q 'invalid mode'; then echo ${index}; fi`
    })
    .join('\n')
  const refused = new Set(execFileSync('sh', ['-c', script], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number))
  return paths.map((path, index) => (refused.has(index) ? 'invalid' : statSync(path).mode & 0o7777))
}

/** The mode our operation gives, or `invalid` when it refuses the expression itself. */
async function ourMode({ start, expression, umask, directory }: Case): Promise<number | 'invalid'> {
  try {
    return Number.parseInt(await resultOf({ input: expression, base: start.toString(8), umask, isDirectory: directory }), 8)
  } catch (error) {
    if ((error as { code?: string }).code === 'INVALID_INPUT') return 'invalid'
    throw error
  }
}

/** The vectors GNU coreutils 9.1 chmod gave on a file and a directory: start, expression, umask → mode. */
const GNU_TABLE: Array<Case & { mode: string; ls?: string }> = [
  { start: 0o644, expression: 'u+x', umask: '022', directory: false, mode: '0744', ls: '-rwxr--r--' },
  { start: 0o777, expression: '-w', umask: '022', directory: false, mode: '0577' },
  { start: 0o640, expression: '=r', umask: '022', directory: false, mode: '0444' },
  { start: 0o755, expression: 'u=rwx,g=rx,o=', umask: '022', directory: false, mode: '0750' },
  { start: 0o644, expression: 'u+s', umask: '022', directory: false, mode: '4644', ls: '-rwSr--r--' },
  { start: 0o755, expression: 'o-x,+t', umask: '022', directory: false, mode: '1754', ls: '-rwxr-xr-T' },
  { start: 0o754, expression: 'a+X', umask: '022', directory: false, mode: '0755' },
  { start: 0o644, expression: 'u+X', umask: '022', directory: false, mode: '0644' },
  { start: 0o644, expression: 'a+X', umask: '022', directory: true, mode: '0755', ls: 'drwxr-xr-x' },
  { start: 0o750, expression: 'o=g-x', umask: '022', directory: false, mode: '0754' },
  { start: 0o000, expression: '+rwx', umask: '027', directory: false, mode: '0750' },
  { start: 0o644, expression: 'a+rwxst', umask: '000', directory: false, mode: '7777', ls: '-rwsrwsrwt' },
  // A directory keeps its set-ID bits unless the clause names s.
  { start: 0o2755, expression: 'g=rx', umask: '022', directory: true, mode: '2755', ls: 'drwxr-sr-x' },
  { start: 0o2755, expression: 'g-s', umask: '022', directory: true, mode: '0755' },
  { start: 0o6755, expression: 'a=rx', umask: '022', directory: false, mode: '0555' },
  { start: 0o6755, expression: 'a=rx', umask: '022', directory: true, mode: '6555' },
]

/** Clauses as POSIX writes them, with the letters in any order and count, and some that change nothing (`o+s`, `u+t`). */
const clause = fc
  .tuple(
    fc.array(fc.constantFrom('u', 'g', 'o', 'a'), { maxLength: 3 }),
    fc.array(
      fc.tuple(
        fc.constantFrom('+', '-', '='),
        fc.oneof(
          fc.array(fc.constantFrom('r', 'w', 'x', 'X', 's', 't'), { maxLength: 4 }).map((letters) => letters.join('')),
          fc.constantFrom('u', 'g', 'o'),
        ),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([who, actions]) => who.join('') + actions.map(([operator, what]) => operator + what).join(''))
const expression = fc.array(clause, { minLength: 1, maxLength: 4 }).map((clauses) => clauses.join(','))
const mode = fc.integer({ min: 0, max: 0o7777 })
const umaskText = fc.integer({ min: 0, max: 0o777 }).map((value) => value.toString(8).padStart(3, '0'))
const gnuCase: fc.Arbitrary<Case> = fc.record({ start: mode, expression, umask: umaskText, directory: fc.boolean() })

const KNOWN_ANSWERS: Array<{ input: Record<string, unknown>; output: Record<string, unknown> }> = [
  {
    input: { input: '755' },
    output: {
      result: '0755',
      action: 'mode',
      octal: '755',
      symbolic: 'rwxr-xr-x',
      ls: '-rwxr-xr-x',
      expression: 'u=rwx,g=rx,o=rx',
      special: { setuid: false, setgid: false, sticky: false },
      owner: { read: true, write: true, execute: true },
      group: { read: true, write: false, execute: true },
      others: { read: true, write: false, execute: true },
      isDirectory: false,
      command: 'chmod 755 <file>',
    },
  },
  {
    input: { input: '4755' },
    output: {
      result: '4755',
      action: 'mode',
      octal: '4755',
      symbolic: 'rwsr-xr-x',
      ls: '-rwsr-xr-x',
      expression: 'u=rwx,g=rx,o=rx,u+s',
      special: { setuid: true, setgid: false, sticky: false },
      owner: { read: true, write: true, execute: true },
      group: { read: true, write: false, execute: true },
      others: { read: true, write: false, execute: true },
      isDirectory: false,
      command: 'chmod 4755 <file>',
    },
  },
  {
    input: { input: '022', action: 'umask' },
    output: {
      result: '0022',
      action: 'umask',
      symbolic: 'u=rwx,g=rx,o=rx',
      fileMode: '0644',
      fileSymbolic: 'rw-r--r--',
      directoryMode: '0755',
      directorySymbolic: 'rwxr-xr-x',
      command: 'umask 022',
    },
  },
]

/** Inputs it must refuse, with the code of the error and, for a 422, the field and position it names. */
const REFUSED: Array<{ input: Record<string, unknown>; code: string; field?: string; position?: number; message?: RegExp }> = [
  { input: { input: 'u+q', base: '644' }, code: 'INVALID_INPUT', field: 'input', position: 2, message: /'q' at position 2/ },
  { input: { input: '8644' }, code: 'INVALID_INPUT', field: 'input', position: 0, message: /not an octal digit/ },
  { input: { input: '7558' }, code: 'INVALID_INPUT', field: 'input', position: 3 },
  { input: { input: '12345' }, code: 'INVALID_INPUT', field: 'input', position: 4, message: /more than 4 octal digits/ },
  { input: { input: '75a' }, code: 'INVALID_INPUT', field: 'input', position: 2 },
  { input: { input: 'rwxr-xr-q' }, code: 'INVALID_INPUT', field: 'input', position: 8, message: /others' execute slot/ },
  { input: { input: '-rwxr-xr-q' }, code: 'INVALID_INPUT', field: 'input', position: 9 },
  { input: { input: 'rwsr-xr-s' }, code: 'INVALID_INPUT', field: 'input', position: 8 },
  { input: { input: 'xwxr-xr-x' }, code: 'INVALID_INPUT', field: 'input', position: 0, message: /owner's read slot/ },
  { input: { input: 'qrwxr-xr-x' }, code: 'INVALID_INPUT', field: 'input', position: 0, message: /file type/ },
  { input: { input: '-rwxr-xr-x!' }, code: 'INVALID_INPUT', field: 'input', position: 10 },
  { input: { input: 'rwx' }, code: 'INVALID_INPUT', field: 'input', position: 0, message: /9 characters/ },
  { input: { input: 'hello' }, code: 'INVALID_INPUT', field: 'input', position: 0 },
  { input: { input: 'u', base: '644' }, code: 'INVALID_INPUT', field: 'input', position: 1, message: /without an operator/ },
  { input: { input: 'u+x,', base: '644' }, code: 'INVALID_INPUT', field: 'input', position: 4 },
  { input: { input: ',u+x', base: '644' }, code: 'INVALID_INPUT', field: 'input', position: 0 },
  { input: { input: 'u+x g+w', base: '644' }, code: 'INVALID_INPUT', field: 'input', position: 3 },
  { input: { input: 'u x', base: '644' }, code: 'INVALID_INPUT', field: 'input', position: 1, message: /write it as %2B/ },
  { input: { input: 'g=uo', base: '644' }, code: 'INVALID_INPUT', field: 'input', position: 3, message: /copying from u, g or o stands alone/ },
  { input: { input: 'u=rwxu', base: '644' }, code: 'INVALID_INPUT', field: 'input', position: 5 },
  { input: { input: '=644', base: '644' }, code: 'INVALID_INPUT', field: 'input', position: 1, message: /GNU's =644/ },
  { input: { input: 'U+x', base: '644' }, code: 'INVALID_INPUT', field: 'input', position: 0 },
  { input: { input: 'u+x', base: '9' }, code: 'INVALID_INPUT', field: 'base', position: 0 },
  { input: { input: 'u+x', base: '07555' }, code: 'INVALID_INPUT', field: 'base', position: 4 },
  { input: { input: 'u+x', base: '644', umask: '08' }, code: 'INVALID_INPUT', field: 'umask', position: 1 },
  { input: { input: 'u+x', base: '644', umask: '1022' }, code: 'INVALID_INPUT', field: 'umask', message: /special bits/ },
  { input: { input: '1022', action: 'umask' }, code: 'INVALID_INPUT', field: 'input', message: /special bits/ },
  { input: { input: '0x22', action: 'umask' }, code: 'INVALID_INPUT', field: 'input', position: 1 },
  { input: { input: '022', action: 'umask', base: '644' }, code: 'VALIDATION_ERROR' },
  { input: { input: '' }, code: 'VALIDATION_ERROR' },
  { input: { input: '755', action: 'octal' }, code: 'VALIDATION_ERROR' },
  { input: { input: '755', isDirectory: 'true' }, code: 'VALIDATION_ERROR' },
  { input: { input: '755', base: 644 }, code: 'VALIDATION_ERROR' },
]

describe('chmod', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(chmod).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/chmod/index.ts')
  })

  test('answers known inputs in every form', async () => {
    for (const { input, output } of KNOWN_ANSWERS) assert.deepEqual(await run(input), output, JSON.stringify(input))
  })

  test("the published table of GNU coreutils chmod's answers", async () => {
    for (const { start, expression, umask, directory, mode, ls } of GNU_TABLE) {
      const data = await run({ input: expression, base: start.toString(8), umask, isDirectory: directory })
      const context = `${start.toString(8)} ${expression} umask ${umask}${directory ? ' (directory)' : ''}`
      assert.equal(data.result, mode, context)
      if (ls !== undefined) assert.equal(data.ls, ls, context)
    }
  })

  test('the same table, run through GNU chmod on a file and a directory of this machine', () => {
    const gnu = gnuModes(GNU_TABLE)
    GNU_TABLE.forEach(({ start, expression, directory, mode }, index) => {
      assert.equal(gnu[index], Number.parseInt(mode, 8), `GNU chmod ${expression} on ${start.toString(8)}${directory ? ' (directory)' : ''}`)
    })
  })

  test('generated expressions, starting modes, umasks, files and directories: the mode GNU chmod gives (fast-check)', async () => {
    const cases = fc.sample(gnuCase, 300)
    const gnu = gnuModes(cases)
    for (const [index, candidate] of cases.entries()) {
      assert.equal(await ourMode(candidate), gnu[index], `GNU chmod ${JSON.stringify(candidate)}`)
    }
  })

  test("known differences from GNU chmod: its octal after an operator (=644), which POSIX's grammar does not allow", async () => {
    const extensions: Case[] = ['=644', '+4000', 'a=755'].map((expression) => ({ start: 0o600, expression, umask: '022', directory: false }))
    const gnu = gnuModes(extensions)
    assert.deepEqual(gnu.slice(0, 2), [0o644, 0o4600], 'GNU takes them')
    assert.equal(gnu[2], 'invalid', 'but not after who-letters')
    for (const candidate of extensions) assert.equal(await ourMode(candidate), 'invalid', candidate.expression)
  })

  test('every mode reads back from its octal, ls and expression forms (all 4,096)', async () => {
    for (let value = 0; value <= 0o7777; value++) {
      const octal = value.toString(8).padStart(4, '0')
      const data = await run({ input: octal })
      assert.equal(data.result, octal)
      assert.equal(await resultOf({ input: data.ls as string }), octal, `ls ${data.ls}`)
      assert.equal(await resultOf({ input: data.symbolic as string }), octal, `ls ${data.symbolic}`)
      assert.equal(await resultOf({ input: data.octal as string }), octal, `octal ${data.octal}`)
      // The absolute expression needs no base and gives the mode from any start.
      assert.equal(await resultOf({ input: data.expression as string }), octal, `expression ${data.expression}`)
      assert.equal(await resultOf({ input: data.expression as string, base: '7777', umask: '777' }), octal, `expression ${data.expression} over 7777`)
      assert.equal(data.command, `chmod ${data.octal} <file>`)
    }
  })

  test('the ls file type decides isDirectory, and ls -l markers after the mode are read', async () => {
    assert.equal((await run({ input: 'drwxr-sr-x+' })).isDirectory, true)
    assert.equal((await run({ input: 'drwxr-sr-x+' })).result, '2755')
    assert.equal((await run({ input: '-rw-r--r--.', isDirectory: true })).isDirectory, false)
    assert.equal((await run({ input: 'lrwxrwxrwx' })).ls, 'lrwxrwxrwx')
    assert.equal((await run({ input: '755', isDirectory: true })).ls, 'drwxr-xr-x')
    // `-rw-rw-rwx` is also a valid symbolic expression: read as the ls string it most likely is.
    assert.equal(await resultOf({ input: '-rw-rw-rwx' }), '0667')
    assert.equal(await resultOf({ input: '-w,u+x,g+r', base: '666' }), '0566')
  })

  test('without base, an expression is answered only when it decides every bit, and then for any start (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(expression, umaskText, fc.boolean(), fc.array(mode, { minLength: 1, maxLength: 8 }), async (input, umask, isDirectory, starts) => {
        let alone: string
        try {
          alone = await resultOf({ input, umask, isDirectory })
        } catch (error) {
          assert.equal((error as { code?: string }).code, 'INVALID_INPUT')
          assert.equal((error as { details?: { field?: string } }).details?.field, 'base')
          return
        }
        // A directory's kept set-ID bits are taken as clear when there is no base.
        const kept = isDirectory ? 0o6000 : 0
        for (const start of starts)
          assert.equal(await resultOf({ input, base: (start & ~kept).toString(8), umask, isDirectory }), alone, `from ${start.toString(8)}`)
      }),
      { numRuns: 300 },
    )
    await expectRefusal(run({ input: 'u+x' }), { code: 'INVALID_INPUT', message: /base is required: u\+x leaves bits of the owner, group, others/ })
    await expectRefusal(run({ input: 'u=rwx,g=rx' }), { code: 'INVALID_INPUT', message: /of the others as they were/ })
    assert.equal(await resultOf({ input: 'a=r' }), '0444')
    assert.equal(await resultOf({ input: 'u=rwx,g=u,o=g-w' }), '0775')
    assert.equal(await resultOf({ input: 'u=rwx,g=rx,o=', isDirectory: true }), '0750')
  })

  test('umask: the modes of new files and directories, for every umask', async () => {
    for (let umask = 0; umask <= 0o777; umask++) {
      const data = await run({ input: umask.toString(8), action: 'umask' })
      assert.equal(data.fileMode, (0o666 & ~umask).toString(8).padStart(4, '0'))
      assert.equal(data.directoryMode, (0o777 & ~umask).toString(8).padStart(4, '0'))
      // What `umask -S` writes is an expression that gives the directory mode.
      assert.equal(await resultOf({ input: data.symbolic as string }), data.directoryMode)
    }
  })

  test('refuses what it cannot process, saying where', async () => {
    for (const { input, code, field, position, message } of REFUSED) {
      await expectRefusal(run(input), {
        code,
        message,
        position,
        check: (error) => {
          if (field !== undefined) assert.equal(error.details?.field, field, JSON.stringify(input))
        },
      })
    }
    await expectRefusal(run({ input: 'u+x' }), { code: 'INVALID_INPUT', details: { field: 'base' } })
  })

  test('long expressions are answered at once', async () => {
    const started = performance.now()
    assert.equal(await resultOf({ input: `${'u+x,g=u,o-w,'.repeat(83)}a+X`, base: '644' }), '0775')
    await expectRefusal(run({ input: `${'u+x,'.repeat(249)}u+q`, base: '644' }), { code: 'INVALID_INPUT', position: 998 })
    await expectRefusal(run({ input: 'u+x'.repeat(334), base: '644' }), { code: 'VALIDATION_ERROR' })
    const elapsed = performance.now() - started
    assert.ok(elapsed < 200, `${elapsed} ms`)
  })
})
