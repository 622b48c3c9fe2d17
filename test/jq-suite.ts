import { readFileSync } from 'node:fs'
import { runJq } from '../src/operations/jq/engine.ts'

/** One case of jq's own test files (tests/*.test, read as jq 1.7.1's src/jq_test.c reads them). */
export type JqSuiteCase =
  | { line: number; program: string; fails: false; input: string; expected: string[] }
  | { line: number; program: string; fails: true; message: string | undefined }

const skipped = (line: string) => line.trim() === '' || line.startsWith('#')

/** The cases of a `.test` file: blank lines and `#` comments between them, `%%FAIL` before a program that must not compile. */
export function parseJqTests(text: string): JqSuiteCase[] {
  const lines = text.split('\n')
  const cases: JqSuiteCase[] = []
  let at = 0
  let fail: { checkMessage: boolean } | undefined
  while (at < lines.length) {
    const line = lines[at++]
    if (skipped(line)) continue
    if (line.startsWith('%%FAIL')) {
      fail = { checkMessage: !line.includes('IGNORE MSG') }
      continue
    }
    const program = line
    const programLine = at
    if (fail) {
      const message = lines[at++]
      cases.push({ line: programLine, program, fails: true, message: fail.checkMessage ? message : undefined })
      fail = undefined
      while (at < lines.length && !skipped(lines[at])) at++
      continue
    }
    const input = lines[at++]
    const expected: string[] = []
    while (at < lines.length && !skipped(lines[at])) expected.push(lines[at++])
    cases.push({ line: programLine, program, fails: false, input, expected })
  }
  return cases
}

const decoder = new TextDecoder()

/**
 * Whether jq answers a case as the suite expects: the expected outputs, equal as jq compares values
 * (keys in any order), and no more; an error after them is allowed, as jq's harness allows it.
 * For a case that must not compile: no compiling, and jq's last error line as expected.
 */
export async function jqPasses(test: JqSuiteCase): Promise<boolean> {
  const result = await runJq({ filter: test.program, input: test.fails ? 'null' : test.input, flags: ['-c'], maxOutputBytes: 1 << 20, maxOutputs: 10_000 })
  if (result.kind !== 'exit') return false
  if (test.fails) {
    if (result.exitCode !== 3) return false
    if (test.message === undefined) return true
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('jq: error'))
    return errors.at(-1) === test.message
  }
  if (result.exitCode !== 0 && result.exitCode !== 5) return false
  const outputs = decoder.decode(result.stdout).split('\n').slice(0, -1)
  if (outputs.length !== test.expected.length) return false
  return outputs.every((output, index) => jqEqual(JSON.parse(output), JSON.parse(test.expected[index])))
}

/** Equal as jq's `jv_equal` says: numbers by value (so -0 equals 0), objects whatever the order of their keys. */
export function jqEqual(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => jqEqual(item, b[index]))
  }
  const keys = Object.keys(a)
  const other = b as Record<string, unknown>
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(other, key) && jqEqual((a as Record<string, unknown>)[key], other[key]))
}

export const readSuite = (name: string) => parseJqTests(readFileSync(new URL(`fixtures/suites/jq/${name}`, import.meta.url), 'utf8'))
