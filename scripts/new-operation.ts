// `npm run new-operation <name> -- --category <category>`: writes a new operation's folder, with its
// definition (a skeleton that runs, with placeholders to replace) and its unit test (which fails until
// it holds known answers and no placeholder is left), and its line in the registry, in alphabetical
// order. Every surface picks it up from there; the build generates what they list of it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { COMMANDS } from '../src/cli/main.ts'
import { CATEGORIES } from '../src/core/operation.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const OPERATIONS = 'src/operations'
/** The registry: one line per operation. */
const REGISTRY = `${OPERATIONS}/registry.ts`

/** Names an operation cannot take: the workflows' (routes and tools of their own) and the command line's commands. */
const TAKEN_NAMES = new Set(['pipeline', 'batch', ...COMMANDS])

/** Lower-case words of letters and digits joined by hyphens, starting with a letter: a URL segment, a folder name, a CLI command. */
const KEBAB_CASE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/

/** One loader of the registry: `'base-convert': () => import('./base-convert/index.ts')…`, its name quoted only where it needs to be. */
const LOADER = /^\s*(?:'([a-z0-9-]+)'|([a-z][a-z0-9]*)): \(\) => import\(/

/** Words a `const` cannot be named, which an operation's name may still be (`case`). */
const RESERVED_WORDS = new Set(
  (
    'await break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in ' +
    'instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield'
  ).split(' '),
)

/** The name of the constant a module exports for an operation: its name in camelCase, with `Operation` after a reserved word. */
function exportNameOf(name: string): string {
  const camel = name.replace(/-([a-z0-9])/g, (_, next: string) => next.toUpperCase())
  return RESERVED_WORDS.has(camel) ? `${camel}Operation` : camel
}

function operationModule(name: string, category: string): string {
  const title = name[0].toUpperCase() + name.slice(1).replaceAll('-', ' ')
  return `import { Type } from 'typebox'
import { defineOperation } from '../../core/operation.ts'

export const ${exportNameOf(name)} = defineOperation({
  name: '${name}',
  category: '${category}',
  summary: 'TODO: what ${name} does, in one line for the catalogue',
  title: '${title}',
  aliases: [],
  description:
    'TODO: what ${name} does, for the OpenAPI document and --help: what it reads, what it answers, the standards it follows, and what it refuses (a 400 for what the schema forbids, a 422 for what only processing finds).',
  input: Type.Object(
    {
      input: Type.String({ description: 'TODO: the text ${name} works on.' }),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'TODO: what ${name} answers.' }),
  }),
  examples: [
    { summary: 'TODO: the most common call', input: { input: 'hello' }, output: { result: 'hello' } },
    { summary: 'TODO: a call that shows an option or an edge case', input: { input: '' }, output: { result: '' } },
  ],
  run: ({ input }) => ({ result: input }),
})
`
}

function testModule(name: string): string {
  const operation = exportNameOf(name)
  return `import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { execute } from '../../core/execute.ts'
import { ${operation} } from './index.ts'

const run = (input: Record<string, unknown>) => execute(${operation}, input)

/** Inputs and the answers a reference gives to them: a standard's test vectors, or another tool's output. */
const KNOWN_ANSWERS: Array<{ input: Record<string, unknown>; output: Record<string, unknown> }> = []

/** Inputs it must refuse, each with the code of its error (VALIDATION_ERROR, INVALID_INPUT, LIMIT_EXCEEDED…). */
const REFUSED: Array<{ input: Record<string, unknown>; code: string }> = []

describe('${name}', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(${operation}).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/${name}/index.ts')
  })

  test('answers known inputs as a reference does', async () => {
    assert.ok(KNOWN_ANSWERS.length > 0, 'give ${name} known answers in KNOWN_ANSWERS')
    for (const { input, output } of KNOWN_ANSWERS) assert.deepEqual(await run(input), output, JSON.stringify(input))
  })

  test('refuses what it cannot process, saying why', async () => {
    assert.ok(REFUSED.length > 0, 'give ${name} inputs it refuses in REFUSED')
    for (const { input, code } of REFUSED) await assert.rejects(run(input), { code }, JSON.stringify(input))
  })
})
`
}

interface Placed {
  /** Its line's index. */
  at: number
  /** The operation it is for. */
  name: string
}

/** Inserts `line` among lines placed in alphabetical order of their operations, where `name`'s goes. */
function insertInOrder(lines: string[], placed: readonly Placed[], name: string, line: string): void {
  const next = placed.find((entry) => entry.name > name)
  lines.splice(next ? next.at : placed[placed.length - 1].at + 1, 0, line)
}

function placedBy(lines: readonly string[], pattern: RegExp): Placed[] {
  return lines.flatMap((line, at) => {
    const match = pattern.exec(line)
    return match ? [{ at, name: match[1] ?? match[2] }] : []
  })
}

/** registry.ts with a loader for the new operation. */
function registryWith(registry: string, name: string): string {
  const lines = registry.split('\n')
  const loaders = placedBy(lines, LOADER)
  if (loaders.length === 0) throw new Error(`found no operation loaders in ${REGISTRY}`)
  const key = name.includes('-') ? `'${name}'` : name
  insertInOrder(lines, loaders, name, `  ${key}: () => import('./${name}/index.ts').then((module) => module.${exportNameOf(name)}),`)
  return lines.join('\n')
}

/** Writes the operation's folder and its line in the registry in `root`; refuses a name or category it cannot take, before writing anything. */
export function newOperation(root: string, name: string, category: string): string[] {
  if (!KEBAB_CASE.test(name)) throw new Error(`'${name}' is not kebab-case: lower-case words of letters and digits joined by hyphens, starting with a letter`)
  if (TAKEN_NAMES.has(name)) throw new Error(`'${name}' is taken: ${[...TAKEN_NAMES].join(', ')} name the workflows and the command line's commands`)
  if (!(CATEGORIES as readonly string[]).includes(category)) throw new Error(`'${category}' is not a category: one of ${CATEGORIES.join(', ')}`)
  const folder = `${OPERATIONS}/${name}`
  const files = { operation: `${folder}/index.ts`, test: `${folder}/${name}.test.ts` }
  const registry = readFileSync(join(root, REGISTRY), 'utf8')
  const registered = placedBy(registry.split('\n'), LOADER).some((loader) => loader.name === name)
  if (registered || existsSync(join(root, folder))) throw new Error(`the operation '${name}' exists already`)
  const updated = registryWith(registry, name)
  mkdirSync(join(root, folder))
  writeFileSync(join(root, files.operation), operationModule(name, category), { flag: 'wx' })
  writeFileSync(join(root, files.test), testModule(name), { flag: 'wx' })
  writeFileSync(join(root, REGISTRY), updated)
  return [files.operation, files.test, REGISTRY]
}

const USAGE = 'usage: npm run new-operation <name> -- --category <encoders|generators|converters>'

function requestOf(args: string[]): { name: string; category: string } {
  const { positionals, values } = parseArgs({ args, options: { category: { type: 'string' } }, allowPositionals: true })
  if (positionals.length !== 1) throw new Error('give one name')
  if (values.category === undefined) throw new Error('give a --category')
  return { name: positionals[0], category: values.category }
}

function main(args: string[]): number {
  let request: { name: string; category: string }
  try {
    request = requestOf(args)
  } catch (error) {
    console.error(`new-operation: ${(error as Error).message}\n${USAGE}`)
    return 2
  }
  try {
    const written = newOperation(ROOT, request.name, request.category)
    console.log(`wrote ${written.join(', ')}`)
    console.log(
      `next: replace each TODO in ${written[0]}, give its test known answers (it fails until then), and run \`npm run docs\` for its entry in docs/operations.md`,
    )
    return 0
  } catch (error) {
    console.error(`new-operation: ${(error as Error).message}`)
    return 1
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv.slice(2))
