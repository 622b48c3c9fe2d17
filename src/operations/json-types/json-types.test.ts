import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { promisify } from 'node:util'
import fc from 'fast-check'
import ts from 'typescript'
import { expectRefusal } from '../../../test/expect.ts'
import { execute, setOffloadPolicy } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { loadOperation } from '../registry.ts'
import { joinedWithinLimit, jsonTypes } from './index.ts'

/** json-schema, reached through the registry as any other operation reaches it. */
const jsonSchema = (await loadOperation('json-schema'))!

after(() => closeWorkerPool())

const run = async (input: Record<string, unknown>) => {
  // Most calls run in process, where they are quicker to test; the worker path has its own test below.
  const previous = setOffloadPolicy('never')
  try {
    return (await execute(jsonTypes, input, { timeBudgetMs: 60_000 })) as { result: string; language: string; rootName: string; warnings: string[] }
  } finally {
    setOffloadPolicy(previous)
  }
}
const typesOf = async (input: Record<string, unknown>) => (await run(input)).result
/** The text with every run of white space made one space: quicktype aligns columns, the vectors do not. */
const squeezed = (text: string) => text.replace(/\s+/g, ' ').trim()

const LANGUAGES = ['typescript', 'zod', 'go', 'rust', 'python', 'java', 'csharp', 'kotlin', 'swift', 'jsonSchema'] as const

// The samples of the published vectors: two users, the second with a key the first lacks.
const ADA = { id: 1, name: 'Ada', email: null, tags: ['x'], created_at: '2024-05-01T10:00:00Z' }
const BOB = { id: 2, name: 'Bob', email: 'b@x.org', tags: [], nick: 'b' }
const USERS = { input: [ADA, BOB], multipleSamples: true, rootName: 'User' }

// Published test data: quicktype's own sample documents (see test/fixtures/suites/quicktype-samples/SOURCE.txt).
const SAMPLES_FOLDER = new URL('../../../test/fixtures/suites/quicktype-samples/', import.meta.url)
const SAMPLE_NAMES = ['simple-object', 'getting-started', 'bitcoin-block', 'null-safe', 'kitchen-sink', 'spotify-album'] as const
const SAMPLES = SAMPLE_NAMES.map((name) => ({
  name,
  text: readFileSync(new URL(`${name}.json`, SAMPLES_FOLDER), 'utf8'),
  rootName: name.replace(/(^|-)([a-z])/g, (_, _dash: string, letter: string) => letter.toUpperCase()),
}))

const execFileAsync = promisify(execFile)
const hasCommand = (command: string) =>
  execFileAsync('sh', ['-c', `command -v ${command}`]).then(
    () => true,
    () => false,
  )
const [hasJavac, hasRustc, hasPython, hasGo] = await Promise.all(['javac', 'rustc', 'python3', 'go'].map(hasCommand))

describe('json-types', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(jsonTypes).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/json-types/index.ts')
  })

  test('the published vectors: TypeScript, Zod, Python and Go from the two users, and keys that are not names', async () => {
    // 1. TypeScript: a key missing from one sample is optional, null and a string make a union.
    assert.equal(
      squeezed(await typesOf(USERS)),
      'export interface User { id: number; name: string; email: null | string; tags: string[]; created_at?: string; nick?: string; }',
    )
    // 2. Zod.
    const zod = squeezed(await typesOf({ ...USERS, language: 'zod' }))
    for (const part of [
      'export const UserSchema = z.object({ "id": z.number(),',
      '"email": z.union([z.null(), z.string()]),',
      '"created_at": z.string().optional(),',
      '"nick": z.string().optional(), });',
    ]) {
      assert.ok(zod.includes(part), `${part} in ${zod}`)
    }
    // 3. Python: required fields first, the optional ones defaulting to None (quicktype 26 writes Python 3.10's
    //    `list[str]` and `str | None`, where the vector, seen with an older target, wrote List[str] and Optional[str]).
    //    The description says so: such code does not run on an older Python.
    assert.match(jsonTypes.description, /Python dataclasses \([^)]*needs Python 3\.10 or newer\)/)
    assert.match(
      squeezed(await typesOf({ ...USERS, language: 'python' })),
      /@dataclass class User: id: int name: str tags: list\[str\] email: str \| None = None created_at: str \| None = None nick: str \| None = None$/,
    )
    // 4. Go, the first sample alone with keys that are not names: each field keeps its JSON name in its tag.
    const go = await typesOf({ input: { ...ADA, 'weird key': 1, 'a-b': 1, a_b: 2, AB: 3 }, language: 'go' })
    for (const [field, key] of [
      ['WeirdKey', 'weird key'],
      ['AB', 'a-b'],
      ['RootAB', 'a_b'],
      ['Ab', 'AB'],
    ]) {
      assert.match(go, new RegExp(`\\t${field} +int64 +\`json:"${key}"\``))
    }
    // 5. Keys a TypeScript identifier cannot be stay properties, quoted where they must be.
    const keys = await typesOf({ input: { constructor: 1, '': 2, 'a-b': 3 } })
    assert.match(keys, /^ {4}constructor: number;$/m)
    assert.match(keys, /^ {4}"": +number;$/m)
    assert.match(keys, /^ {4}"a-b": +number;$/m)
  })

  test("every language writes types for each of quicktype's sample documents, with and without helpers", async () => {
    for (const { text, rootName } of SAMPLES) {
      for (const language of LANGUAGES) {
        for (const justTypes of [true, false]) {
          const answer = await run({ input: text, language, rootName, justTypes })
          assert.equal(answer.language, language)
          assert.equal(answer.rootName, rootName)
          assert.ok(answer.result.length > 0)
          if (language !== 'jsonSchema') assert.ok(answer.result.includes(rootName), `${rootName} in the ${language} output`)
          assert.ok(
            answer.warnings.every((warning) => warning.includes('ignored')),
            `${language}: ${answer.warnings}`,
          )
        }
      }
    }
  })

  test('the generated code compiles and reads its sample back: TypeScript, Python, Java and Rust where installed', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'json-types-'))
    try {
      const checks: Array<Promise<unknown>> = []
      // TypeScript: each sample type-checks as its own type, and the Convert helpers read it and write it back.
      const tsFiles: string[] = []
      for (const { name, text, rootName } of SAMPLES) {
        const types = await typesOf({ input: text, rootName })
        const file = join(folder, `${name}.ts`)
        writeFileSync(file, `${types}\nexport const sample: ${rootName} = ${text.trim()}\n`)
        tsFiles.push(file)
        const helpers = await typesOf({ input: text, rootName, justTypes: false })
        const { outputText } = ts.transpileModule(helpers, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } })
        const exports: Record<string, Record<string, (value: unknown) => unknown>> = {}
        new Function('exports', outputText)(exports)
        const value = exports.Convert[`to${rootName}`](text)
        assert.deepEqual(JSON.parse(exports.Convert[`${rootName[0].toLowerCase()}${rootName.slice(1)}ToJson`](value) as string), JSON.parse(text), name)
      }
      const keys = join(folder, 'keys.ts')
      writeFileSync(keys, `${await typesOf({ input: { constructor: 1, '': 2 } })}\nexport const sample: Root = { constructor: 1, "": 2 }\n`)
      tsFiles.push(keys)
      // Python: root_from_dict and root_to_dict give every sample back unchanged.
      if (hasPython) {
        const script: string[] = ['import json']
        for (const { name, text } of SAMPLES) {
          const module = join(folder, `${name.replaceAll('-', '_')}.py`)
          writeFileSync(module, await typesOf({ input: text, language: 'python', justTypes: false }))
          writeFileSync(join(folder, `${name}.json`), text)
          script.push(
            `import ${name.replaceAll('-', '_')} as m`,
            `data = json.load(open(${JSON.stringify(join(folder, `${name}.json`))}, encoding="utf-8"))`,
            `assert m.root_to_dict(m.root_from_dict(data)) == data, ${JSON.stringify(name)}`,
          )
        }
        writeFileSync(join(folder, 'check.py'), `${script.join('\n')}\n`)
        checks.push(execFileAsync('python3', [join(folder, 'check.py')], { cwd: folder }))
      }
      // Java: the classes compile, each file as quicktype names it.
      if (hasJavac) {
        const javaFiles: string[] = []
        for (const { text, rootName } of SAMPLES) {
          const source = await typesOf({ input: text, language: 'java', rootName, packageName: `samples.${rootName.toLowerCase()}` })
          const directory = join(folder, 'java', rootName.toLowerCase())
          mkdirSync(directory, { recursive: true })
          // Several classes come as one text, each after a comment that names its file.
          const parts = /^\/\/ \w+\.java$/m.test(source)
            ? source.split(/^\/\/ (?=\w+\.java$)/m).filter((part) => part.trim() !== '')
            : [`${rootName}.java\n${source}`]
          for (const part of parts) {
            const [fileName, ...body] = part.split('\n')
            writeFileSync(join(directory, fileName), body.join('\n'))
            javaFiles.push(join(directory, fileName))
          }
        }
        checks.push(execFileAsync('javac', ['-d', join(folder, 'classes'), ...javaFiles]))
      }
      // Rust: the structs type-check (serde, which is not installed, stood in for: its derives and attributes are left out).
      if (hasRustc) {
        const modules: string[] = ['#![allow(dead_code, unused_imports)]', 'mod serde_json { pub type Value = (); }']
        for (const { name, text, rootName } of SAMPLES) {
          const source = (await typesOf({ input: text, language: 'rust', rootName }))
            .replace(/^use serde::.*$/gm, '')
            .replace(/^\s*#\[serde\(.*\)\]$/gm, '')
            .replaceAll(', Serialize, Deserialize', '')
          modules.push(`mod ${name.replaceAll('-', '_')} {\nuse crate::serde_json;\n${source}\n}`)
        }
        writeFileSync(join(folder, 'samples.rs'), modules.join('\n'))
        checks.push(
          execFileAsync('rustc', [
            '--edition',
            '2021',
            '--crate-type',
            'lib',
            '--emit',
            'metadata',
            '-o',
            join(folder, 'samples.rmeta'),
            join(folder, 'samples.rs'),
          ]),
        )
      }
      // The other compilers run meanwhile, in their own processes.
      const program = ts.createProgram(tsFiles, {
        noEmit: true,
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        lib: ['lib.es2022.d.ts'],
        types: [],
      })
      const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
      assert.deepEqual(diagnostics, [])
      await Promise.all(checks)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  test('the Go output passes go vet when go is installed', { skip: !hasGo && 'go is not installed' }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'json-types-go-'))
    try {
      writeFileSync(join(folder, 'types.go'), await typesOf({ input: SAMPLES[4].text, language: 'go', packageName: 'samples' }))
      await execFileAsync('go', ['vet', join(folder, 'types.go')])
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  test('the options: rootName, packageName, allOptional, justTypes and each inference', async () => {
    assert.match(await typesOf({ input: { a: 1 }, rootName: 'Payload' }), /^export interface Payload \{$/m)
    // quicktype spells the name as the language spells type names.
    assert.match(await typesOf({ input: { a: 1 }, rootName: 'payload_2' }), /^export interface Payload2 \{$/m)
    assert.match(await typesOf({ input: { a: 1 }, rootName: 'payload_2', language: 'python' }), /^class Payload2:$/m)
    assert.match(await typesOf({ input: { a: 1 }, language: 'java', packageName: 'com.example' }), /^package com\.example;$/m)
    assert.match(await typesOf({ input: { a: 1 }, language: 'kotlin', packageName: 'com.example' }), /^package com\.example$/m)
    assert.match(await typesOf({ input: { a: 1 }, language: 'csharp', packageName: 'Example.Models' }), /^namespace Example\.Models$/m)
    assert.match(await typesOf({ input: { a: 1 }, language: 'go', packageName: 'models' }), /^package models$/m)
    assert.doesNotMatch(await typesOf({ input: { a: 1 }, language: 'go' }), /^package /m)
    assert.match(await typesOf({ input: { a: 1 }, allOptional: true }), /^ {4}a\?: number;$/m)
    // justTypes: the types alone, or with the helpers that read and write them.
    assert.doesNotMatch(await typesOf({ input: { a: 1 } }), /Convert/)
    assert.match(await typesOf({ input: { a: 1 }, justTypes: false }), /export class Convert/)
    assert.doesNotMatch(await typesOf({ input: { a: 1 }, language: 'rust' }), /^\/\/ Example code/m)
    assert.match(await typesOf({ input: { a: 1 }, language: 'rust', justTypes: false }), /^\/\/ Example code/m)
    // Swift's usage comment shows an initialiser only the helpers write.
    const swift = await typesOf({ input: { a: 1 }, language: 'swift' })
    assert.doesNotMatch(swift, /try Root|To parse the JSON/)
    assert.match(swift, /^import Foundation\n/)
    assert.match(await typesOf({ input: { a: 1 }, language: 'swift', justTypes: false }), /^\/\/ {3}let root = try Root\(json\)$/m)
    assert.doesNotMatch(await typesOf({ input: { a: 1 }, language: 'python' }), /def from_dict/)
    assert.match(await typesOf({ input: { a: 1 }, language: 'python', justTypes: false }), /def from_dict/)
    // Strings stay strings unless an inference is asked for.
    const statuses = {
      input: Array.from({ length: 12 }, (_, i) => ({ at: `2024-05-${10 + i}T10:00:00Z`, n: `${i}`, status: i % 3 === 0 ? 'open' : 'closed' })),
      multipleSamples: true,
    }
    assert.match(squeezed(await typesOf(statuses)), /at: string; n: string; status: string;/)
    const inferred = squeezed(await typesOf({ ...statuses, inferDateTimes: true, inferEnums: true }))
    assert.match(inferred, /at: Date; n: string; status: Status;/)
    assert.match(inferred, /export type Status = "open" \| "closed";/)
    assert.match(squeezed(await typesOf({ ...statuses, language: 'python', inferIntegerStrings: true })), /at: str n: int status: str/)
    assert.match(squeezed(await typesOf({ ...statuses, language: 'csharp', inferIntegerStrings: true })), /public long N \{ get; set; \}/)
    assert.deepEqual((await run({ ...statuses, language: 'go', inferIntegerStrings: true })).warnings, [
      'inferIntegerStrings: quicktype converts strings of digits in csharp and python only, not in go: ignored',
    ])
    assert.deepEqual((await run({ ...statuses, language: 'rust', inferDateTimes: true })).warnings, [
      'inferDateTimes: quicktype keeps dates as String in rust: ignored',
    ])
    // Maps: keys that look like data make a map, unless maps are off.
    const byId = { input: { byId: { 'a1b2c3d4-0000-4000-8000-000000000001': { n: 1 }, 'a1b2c3d4-0000-4000-8000-000000000002': { n: 2 } } } }
    assert.match(squeezed(await typesOf(byId)), /byId: \{ \[key: string\]: ByID \};/)
    assert.doesNotMatch(squeezed(await typesOf({ ...byId, inferMaps: false })), /\[key: string\]/)
  })

  test('jsonSchema is the schema json-schema infers, with the same rules and options', async () => {
    const schema = JSON.parse(await typesOf({ ...USERS, language: 'jsonSchema', rootName: 'Root' }))
    assert.deepEqual(schema, {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        email: { type: ['null', 'string'] },
        tags: { type: 'array', items: { type: 'string' } },
        created_at: { type: 'string' },
        nick: { type: 'string' },
      },
      required: ['id', 'name', 'email', 'tags'],
    })
    const dated = JSON.parse(await typesOf({ input: ADA, language: 'jsonSchema', inferDateTimes: true, allOptional: true }))
    assert.deepEqual(dated.properties.created_at, { type: 'string', format: 'date-time' })
    assert.equal(dated.required, undefined)
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue({ maxDepth: 4 }), { minLength: 1, maxLength: 4 }), fc.boolean(), async (samples, allOptional) => {
        const previous = setOffloadPolicy('never')
        try {
          const fromTypes = JSON.parse(await typesOf({ input: samples, multipleSamples: true, language: 'jsonSchema', allOptional }))
          const inferred = await execute(jsonSchema, { input: samples, action: 'infer', multipleSamples: true, required: allOptional ? 'none' : 'all' })
          assert.deepEqual(fromTypes, inferred.result)
        } finally {
          setOffloadPolicy(previous)
        }
      }),
      { numRuns: 40 },
    )
  })

  test('property: any JSON value gives types in any language, never an error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue({ maxDepth: 4 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...LANGUAGES),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        async (samples, language, justTypes, allOptional, inferEnums) => {
          const answer = await run({ input: samples, multipleSamples: true, language, justTypes, allOptional, inferEnums })
          assert.equal(typeof answer.result, 'string')
        },
      ),
      { numRuns: 60 },
    )
  })

  test('warns of numbers a double cannot hold, of options the language ignores, and of a root no type is written for', async () => {
    const text = await run({ input: '{"id": 12345678901234567890, "ok": 9007199254740993}' })
    assert.match(text.warnings[0], /input: the number 12345678901234567890 has no exact double/)
    assert.match(text.warnings[1], /input: the number 9007199254740993 has no exact double/)
    const value = await run({ input: { id: 2 ** 60, small: 2 ** 53 - 1 } })
    assert.deepEqual(value.warnings, [
      `input: the integer ${2 ** 60} is beyond 2^53, where a double (as JSON is read here) holds only some integers: its digits may have been changed`,
    ])
    assert.deepEqual((await run({ input: { a: 1 }, language: 'python', packageName: 'x' })).warnings, [
      'packageName is for java, kotlin, csharp and go; python has no package: ignored',
    ])
    assert.deepEqual((await run({ input: { a: 1 }, language: 'zod', justTypes: false })).warnings, [
      'justTypes: a Zod schema is its own parser, with no helpers to add: ignored',
    ])
    assert.equal((await run({ input: { a: 1 }, language: 'jsonSchema', rootName: 'X', inferEnums: true, inferMaps: false })).warnings.length, 3)
    const scalars = await run({ input: [1, 2] })
    assert.equal(scalars.result, '')
    assert.match(scalars.warnings[0], /^the typescript output declares no type: quicktype writes the type of a root that is a scalar/)
    assert.deepEqual((await run({ input: [1, 2], language: 'go' })).warnings, [])
    const map = await run({ input: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])), language: 'java' })
    assert.match(map.warnings[0], /^the java output declares no type/)
    // Every language declares the type of an object, and some of a scalar.
    for (const language of LANGUAGES) assert.deepEqual((await run({ input: { a: [1] }, language })).warnings, [], language)
    for (const language of ['typescript', 'go', 'rust', 'kotlin']) assert.deepEqual((await run({ input: 1, language })).warnings, [], language)
    for (const language of ['zod', 'python', 'java', 'csharp', 'swift']) assert.equal((await run({ input: 1, language })).warnings.length, 1, language)
  })

  test('a number beyond the range of a double is typed as a number in every language, never as null', async () => {
    // JavaScript reads these as Infinity, which JSON.stringify would write as null.
    const NUMBER_TYPES = {
      typescript: /^ {4}a: number;$/m,
      zod: /"a": z\.number\(\),/,
      go: /^\tA float64 `json:"a"`$/m,
      rust: /^ {4}pub a: f64,$/m,
      python: /^ {4}a: float$/m,
      java: /^ {4}private double a;$/m,
      csharp: /public double A \{ get; set; \}/,
      kotlin: /^ {4}val a: Double$/m,
      swift: /^ {4}let a: Double$/m,
      jsonSchema: /"a": \{\s*"type": "number"\s*\}/,
    } as const satisfies Record<(typeof LANGUAGES)[number], RegExp>
    for (const language of LANGUAGES) {
      const text = await run({ input: '{"a": 1e400}', language })
      assert.match(text.result, NUMBER_TYPES[language], language)
      assert.deepEqual(text.warnings, ['input: the number 1e400 has no exact double, so it is read as Infinity'], language)
      const value = await run({ input: { a: -Infinity }, language })
      assert.match(value.result, NUMBER_TYPES[language], language)
      assert.deepEqual(value.warnings, ['input: a number beyond the range of a double was read as -Infinity: it is typed as a number with a fraction'])
    }
    // The kind of the literal is kept: digits alone are a whole number (Python's int has no bound), a fraction is not.
    const digits = `1${'0'.repeat(400)}`
    const python = await typesOf({ input: `[{"a": ${digits}, "b": 2.5e999}, {"a": 1, "b": 1}]`, multipleSamples: true, language: 'python' })
    assert.match(python, /^ {4}a: int\n {4}b: float$/m)
    assert.match(await typesOf({ input: `{"a": ${digits}}`, language: 'go' }), /^\tA float64 `json:"a"`$/m)
  })

  test('refuses what it cannot process, saying why', async () => {
    await expectRefusal(run({ input: 1, language: 'cobol' }), { code: 'VALIDATION_ERROR', field: 'language' })
    await expectRefusal(run({ input: 1, rootName: '1Root' }), { code: 'VALIDATION_ERROR', field: 'rootName' })
    await expectRefusal(run({ input: 1, rootName: 'a'.repeat(65) }), { code: 'VALIDATION_ERROR', field: 'rootName' })
    await expectRefusal(run({ input: 1, rootName: 'Root Type' }), { code: 'VALIDATION_ERROR', field: 'rootName' })
    await expectRefusal(run({ input: 1, language: 'java', packageName: 'com.example;import' }), { code: 'VALIDATION_ERROR', field: 'packageName' })
    // Dotted names: no empty segment, no trailing dot, each segment an identifier, in every language.
    for (const [language, packageName] of [
      ['java', 'a.b.'],
      ['kotlin', 'a..b'],
      ['csharp', 'Example.'],
      ['java', 'com.1example'],
      ['python', 'a.b.'],
      ['go', 'a.b.'],
      ['java', `a${'.b'.repeat(64)}`],
    ]) {
      await expectRefusal(run({ input: { a: 1 }, language, packageName }), { code: 'VALIDATION_ERROR', field: 'packageName' })
    }
    // A Go package clause names one identifier.
    for (const packageName of ['a.b', 'Models', '_x.y', 'v2.models']) {
      await expectRefusal(run({ input: { a: 1 }, language: 'go', packageName }), {
        code: 'VALIDATION_ERROR',
        field: 'packageName',
        message: /^packageName must be one Go identifier for go: lower-case letters, digits and underscores/,
      })
    }
    assert.match(await typesOf({ input: { a: 1 }, language: 'go', packageName: 'models_v2' }), /^package models_v2$/m)
    assert.match(await typesOf({ input: { a: 1 }, language: 'csharp', packageName: '_Example.V2' }), /^namespace _Example\.V2$/m)
    await expectRefusal(run({ input: 1, justTypes: 'yes' }), { code: 'VALIDATION_ERROR', field: 'justTypes' })
    await expectRefusal(run({ input: 1, language: 'typescript', lang: 'go' }), { code: 'VALIDATION_ERROR' })
    await expectRefusal(run({ input: '{"id": 1,}' }), { code: 'INVALID_INPUT', details: { field: 'input', position: 9, line: 1, column: 10 } })
    await expectRefusal(run({ input: '' }), { code: 'INVALID_INPUT', details: { field: 'input', position: 0 } })
    await expectRefusal(run({ input: { a: 1 }, multipleSamples: true }), { code: 'INVALID_INPUT', details: { field: 'input', reason: 'notSamples' } })
    await expectRefusal(run({ input: '[]', multipleSamples: true }), { code: 'INVALID_INPUT', details: { reason: 'notSamples' } })
    await expectRefusal(run({ input: '"\\ud800"' }), { code: 'INVALID_INPUT', details: { field: 'input', position: 0 } })
  })

  test('refuses samples nested deeper than 100 levels before quicktype sees them, and output past the limit', async () => {
    let deep: unknown = 1
    for (let depth = 0; depth < 101; depth++) deep = { a: deep }
    await expectRefusal(run({ input: deep }), { code: 'LIMIT_EXCEEDED', details: { field: 'input', limit: 100 } })
    await expectRefusal(run({ input: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }), { code: 'LIMIT_EXCEEDED', details: { field: 'input', limit: 100 } })
    let fits: unknown = 1
    for (let depth = 0; depth < 99; depth++) fits = { [`level${depth}`]: fits }
    for (const language of LANGUAGES) assert.ok((await typesOf({ input: fits, language })).length > 0, language)
    // The output limit, checked on quicktype's lines before they are joined: 16 MiB is out of reach of a request that ends in the budget.
    assert.equal(joinedWithinLimit(['a', 'b'], 4), 'a\nb')
    assert.throws(() => joinedWithinLimit(['ab', 'cd'], 4), { code: 'LIMIT_EXCEEDED', details: { limit: 4, predicted: 6 } })
  })

  test('a $ref or __proto__ in a sample is data: nothing is fetched, nothing polluted', async () => {
    const started = performance.now()
    const refs = await typesOf({ input: { $ref: 'http://169.254.169.254/latest/meta-data/', link: { $ref: 'file:///etc/passwd' } } })
    assert.match(refs, /\$ref: +string;/)
    assert.ok(performance.now() - started < 2_000, 'answered at once, without waiting for a network')
    const proto = await typesOf({ input: '{"__proto__": {"polluted": 1}, "toString": 2, "hasOwnProperty": 3}' })
    assert.match(proto, /__proto__: +Proto;/)
    assert.match(proto, /toString: +number;/)
    assert.equal(({} as { polluted?: unknown }).polluted, undefined)
  })

  test('runs on a worker thread, where quicktype is loaded; samples that run past the time budget are stopped there: 422, since they would again', async () => {
    const [example] = jsonTypes.examples
    assert.deepEqual(await execute(jsonTypes, example.input, { timeBudgetMs: 60_000 }), example.output)
    const manyKeys = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`key${i}`, i]))
    const started = performance.now()
    // quicktype takes many times the budget over these keys; the budget leaves a busy machine's thread
    // the time to start and load quicktype before the run it stops.
    await expectRefusal(execute(jsonTypes, { input: manyKeys, inferMaps: false }, { timeBudgetMs: 5_000 }), {
      code: 'LIMIT_EXCEEDED',
      message: /ran past its 5000 ms time budget and was stopped: quicktype takes this long/,
      details: { reason: 'timeout', limitMs: 5_000 },
    })
    assert.ok(performance.now() - started < 15_000)
  })

  test('hostile inputs are answered quickly and within bounds', async () => {
    let started = performance.now()
    // Many records of one shape: one class.
    const records = Array.from({ length: 10_000 }, (_, i) => ({ id: i, name: `n${i}`, tags: ['a'], at: { x: i / 3, y: null } }))
    assert.match(await typesOf({ input: records }), /^export interface Root \{$/m)
    // Keys that are data: one map, not thousands of properties.
    const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`${i}`, { v: i }]))
    assert.equal(squeezed(await typesOf({ input: wide })), 'export interface Root { v: number; }')
    // A long string, a long key, and many samples of a few shapes.
    await typesOf({ input: { [`k${'x'.repeat(100_000)}`]: 'y'.repeat(500_000) }, language: 'java' })
    await typesOf({
      input: Array.from({ length: 2_000 }, (_, i) => (i % 3 === 0 ? { a: i } : i % 3 === 1 ? [i, `${i}`] : null)),
      multipleSamples: true,
      language: 'swift',
    })
    assert.ok(performance.now() - started < 8_000, `${performance.now() - started} ms`)
    started = performance.now()
  })
})
