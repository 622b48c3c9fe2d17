// `npm run docs`: writes the generated parts of the README and of the documents under docs/ from the
// registry and the settings, between `<!-- generated: <part> -->` and `<!-- end generated -->`: how
// many operations there are, their names by category, each operation's entry (its summary, a curl
// example and the answer the service gives to it), the operations that answer GET and those that run
// in the browser, the workflows' examples and the configuration table. `npm run docs -- --check`
// writes nothing, and fails saying what differs when a document is not what it would write.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { createTwoFilesPatch } from 'diff'
import { flagOf, SETTINGS } from '../src/core/config.ts'
import { execute } from '../src/core/execute.ts'
import { type AnyOperation, CATEGORIES } from '../src/core/operation.ts'
import { closeWorkerPool } from '../src/core/pool.ts'
import { servedOperations } from '../src/served-operations.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** The generated operations reference, which the README's index of operations links into. */
const OPERATIONS_DOCUMENT = 'docs/operations.md'

/** Each document that holds generated parts, with the names of the parts it holds. */
const DOCUMENTS: Record<string, readonly PartName[]> = {
  'README.md': ['operation-count', 'operation-index'],
  [OPERATIONS_DOCUMENT]: ['operation-count', 'operations', 'workflows'],
  'docs/USAGE.md': ['get-operations', 'browser-operations'],
  'docs/DEPLOYMENT.md': ['configuration'],
}

/**
 * How shown answers leave things out. `…` stands for what is not shown: a value that differs from
 * call to call (`"…"` for a string, a bare `…` otherwise), the end of a long string (`"<svg …"`), or
 * the remaining members of an object or array (`{"a":1,…}`).
 */
const ELLIPSIS = '…'
/** The longest answer shown whole, in characters; a longer one leaves members out (see `shownAnswer`). */
const ANSWER_LIMIT = 320
/** The longest string shown whole, in characters. */
const STRING_LIMIT = 100
/** Runs of an example without a fixed output, to tell the values that differ from call to call. */
const RUNS = 5
/** Measurements in answers (a batch's envelopes), which differ from call to call even when two runs happen to agree. */
const TIMINGS = new Set(['processingTime'])

/** A value that differed between runs of the same example. */
class Varies {
  constructor(readonly isText: boolean) {}
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The member of a run (an object or an array) at a key or index. */
const memberAt = (key: string | number) => (run: unknown) => (run as Record<string | number, unknown>)[key]

/** What runs of one example agree on, with a `Varies` wherever they differ. */
function steady(runs: readonly unknown[], key?: string): unknown {
  const [first] = runs
  if (key !== undefined && TIMINGS.has(key)) return new Varies(typeof first === 'string')
  if (runs.every((run) => isDeepStrictEqual(run, first))) return first
  if (Array.isArray(first) && runs.every((run) => Array.isArray(run) && run.length === first.length)) {
    return first.map((_, index) => steady(runs.map(memberAt(index))))
  }
  if (isRecord(first) && runs.every((run) => isRecord(run) && isDeepStrictEqual(Object.keys(run), Object.keys(first)))) {
    return Object.fromEntries(Object.keys(first).map((name) => [name, steady(runs.map(memberAt(name)), name)]))
  }
  return new Varies(runs.every((run) => typeof run === 'string'))
}

const hasVaries = (value: unknown): boolean => value instanceof Varies || (typeof value === 'object' && value !== null && Object.values(value).some(hasVaries))

function shortString(text: string): string {
  const codePoints = [...text]
  if (codePoints.length <= STRING_LIMIT) return JSON.stringify(text)
  return `${JSON.stringify(codePoints.slice(0, STRING_LIMIT).join('')).slice(0, -1)}${ELLIPSIS}"`
}

/** An answer being shown: a container keeps its first `kept` members, and `…` stands for the rest. */
type Shown = string | { opener: string; closer: string; members: Array<{ key?: string; value: Shown }>; kept: number }

function shownTree(value: unknown): Shown {
  if (value instanceof Varies) return value.isText ? `"${ELLIPSIS}"` : ELLIPSIS
  if (typeof value === 'string') return shortString(value)
  if (Array.isArray(value)) return { opener: '[', closer: ']', members: value.map((item) => ({ value: shownTree(item) })), kept: value.length }
  if (isRecord(value)) {
    const members = Object.entries(value).map(([key, member]) => ({ key, value: shownTree(member) }))
    return { opener: '{', closer: '}', members, kept: members.length }
  }
  return JSON.stringify(value)
}

function rendered(shown: Shown): string {
  if (typeof shown === 'string') return shown
  const members = shown.members.slice(0, shown.kept).map(({ key, value }) => (key === undefined ? '' : `${JSON.stringify(key)}:`) + rendered(value))
  if (shown.kept < shown.members.length) members.push(ELLIPSIS)
  return shown.opener + members.join(',') + shown.closer
}

function nestedContainers(shown: Shown): Array<Exclude<Shown, string>> {
  if (typeof shown === 'string') return []
  return shown.members.flatMap(({ value }) => (typeof value === 'string' ? [] : [value, ...nestedContainers(value)]))
}

/**
 * An answer as the reference shows it: JSON on one line, with `…` for what differs from call to call,
 * long strings cut, and, past `ANSWER_LIMIT`, members left out from the end of the longest nested
 * object or array first, so that every top-level field keeps a place while it can.
 */
export function shownAnswer(value: unknown): string {
  const shown = shownTree(value)
  for (let text = rendered(shown); text.length > ANSWER_LIMIT; text = rendered(shown)) {
    const longest = nestedContainers(shown)
      .filter((container) => container.kept > 0)
      .map((container) => ({ container, length: rendered(container).length }))
      .sort((a, b) => b.length - a.length)[0]?.container
    let shrinking = longest ?? (typeof shown !== 'string' && shown.kept > 0 ? shown : undefined)
    if (shrinking === undefined) return text
    // A container down to its first member keeps it, shrinking that member instead, while it can.
    for (let first = shrinking.members[0].value; shrinking.kept === 1 && typeof first !== 'string' && first.kept > 0; first = shrinking.members[0].value) {
      shrinking = first
    }
    shrinking.kept--
  }
  return rendered(shown)
}

const ANY = Symbol('any value')
/** How `shownPattern` marks, in the JSON it parses, a value left out (then read as `ANY`) and the members or items left out. */
const ANY_MARK = '\u0000any'
const REST = '\u0000rest'

/** The pattern a shown answer stands for: JSON, with `ANY` for a left-out value and a `REST` member or item for left-out ones. */
function shownPattern(shown: string): unknown {
  let json = ''
  const containers: string[] = []
  let inString = false
  let previous = ''
  for (let index = 0; index < shown.length; index++) {
    const char = shown[index]
    if (inString) {
      json += char
      if (char === '\\') json += shown[++index]
      else if (char === '"') inString = false
      continue
    }
    if (char === '"') inString = true
    else if (char === '{' || char === '[') containers.push(char)
    else if (char === '}' || char === ']') containers.pop()
    if (char === ELLIPSIS) {
      const atMember = previous === '{' || previous === '[' || previous === ','
      const endsContainer = shown[index + 1] === '}' || shown[index + 1] === ']'
      if (atMember && containers.at(-1) === '{') json += `${JSON.stringify(REST)}:0`
      else if (atMember && endsContainer) json += JSON.stringify(REST)
      else json += JSON.stringify(ANY_MARK)
    } else json += char
    if (char.trim() !== '') previous = char
  }
  return JSON.parse(json, (_, value) => (value === ANY_MARK ? ANY : value))
}

/** Where `actual` differs from what the pattern allows, or undefined where it does not. */
function mismatch(pattern: unknown, actual: unknown, path: string): string | undefined {
  if (pattern === ANY) return undefined
  if (typeof pattern === 'string' && pattern.endsWith(ELLIPSIS)) {
    const start = pattern.slice(0, -ELLIPSIS.length)
    return typeof actual === 'string' && actual.startsWith(start) ? undefined : `${path}: a string starting ${JSON.stringify(start)}`
  }
  if (Array.isArray(pattern)) {
    if (!Array.isArray(actual)) return `${path}: an array`
    const rest = pattern.at(-1) === REST
    const items = rest ? pattern.slice(0, -1) : pattern
    if (rest ? actual.length < items.length : actual.length !== items.length) return `${path}: ${items.length}${rest ? ' or more' : ''} items`
    for (const [index, item] of items.entries()) {
      const found = mismatch(item, actual[index], `${path}[${index}]`)
      if (found) return found
    }
    return undefined
  }
  if (isRecord(pattern)) {
    if (!isRecord(actual)) return `${path}: an object`
    const rest = REST in pattern
    const keys = Object.keys(pattern).filter((key) => key !== REST)
    const actualKeys = Object.keys(actual)
    if (!isDeepStrictEqual(rest ? actualKeys.slice(0, keys.length) : actualKeys, keys)) return `${path}: the members ${keys.join(', ')}${rest ? ', …' : ''}`
    for (const key of keys) {
      const found = mismatch(pattern[key], actual[key], `${path}.${key}`)
      if (found) return found
    }
    return undefined
  }
  return isDeepStrictEqual(pattern, actual) ? undefined : `${path}: ${JSON.stringify(pattern)}`
}

/** Where an answer differs from what the documentation shows for it (see `shownAnswer`), or undefined where it shows it. */
export function differenceFromShown(shown: string, actual: unknown): string | undefined {
  const found = mismatch(shownPattern(shown), actual, 'data')
  return found && `the answer ${JSON.stringify(actual)} is not what the documentation shows (${found})`
}

/** The example the reference shows: the first with a fixed answer, or, where every answer is random, the first. */
function shownExample(operation: AnyOperation) {
  return operation.examples.find((example) => example.output !== undefined) ?? operation.examples[0]
}

/** The shell's single-quoted form of a text. */
const shellQuoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`

/** An operation's example as a curl command and the `data` the service answers, in a shell block. */
async function exampleBlock(operation: AnyOperation): Promise<string> {
  const example = shownExample(operation)
  const runs = example.output === undefined ? RUNS : 1
  const answers: unknown[] = []
  for (let run = 0; run < runs; run++) answers.push(await execute(operation, structuredClone(example.input), { timeBudgetMs: 60_000 }))
  const answer = steady(answers)
  return [
    '```sh',
    `# ${example.summary}`,
    `curl -s localhost:3000/api/v1/${operation.name} -H 'content-type: application/json' -d ${shellQuoted(JSON.stringify(example.input))}`,
    `# → "data": ${shownAnswer(answer)}`,
    ...(hasVaries(answer) ? [`# (${ELLIPSIS} differs from call to call)`] : []),
    '```',
  ].join('\n')
}

const capitalised = (word: string) => word[0].toUpperCase() + word.slice(1)

async function operationsPart(): Promise<string> {
  const sections: string[] = []
  for (const category of CATEGORIES) {
    const entries: string[] = []
    for (const operation of servedOperations.filter((candidate) => candidate.category === category)) {
      entries.push(`### ${operation.name}\n\n${operation.summary}.\n\n${await exampleBlock(operation)}`)
    }
    sections.push(`## ${capitalised(category)}\n\n${entries.join('\n\n')}`)
  }
  return `\n\n${sections.join('\n\n')}\n\n`
}

async function workflowsPart(): Promise<string> {
  const blocks: string[] = []
  for (const workflow of servedOperations.filter((operation) => operation.category === 'workflows')) blocks.push(await exampleBlock(workflow))
  return `\n\n${blocks.join('\n\n')}\n\n`
}

function operationCountPart(): string {
  return String(servedOperations.filter((operation) => operation.category !== 'workflows').length)
}

/** Each category's operations by name, every name a link to its entry in the operations reference. */
function operationIndexPart(): string {
  const lines = CATEGORIES.map((category) => {
    const members = servedOperations.filter((operation) => operation.category === category)
    const links = members.map((operation) => `[${operation.name}](${OPERATIONS_DOCUMENT}#${operation.name})`)
    return `- **${capitalised(category)}** (${members.length}): ${links.join(', ')}`
  })
  return `\n\n${lines.join('\n')}\n\n`
}

/** The names of the operations that `test` picks, as code, in the registry's order. */
function operationNamesPart(test: (operation: AnyOperation) => boolean | undefined): string {
  return servedOperations
    .filter(test)
    .map((operation) => `\`${operation.name}\``)
    .join(', ')
}

const cell = (text: string) => text.replaceAll('|', '\\|')

function configurationPart(): string {
  const rows = Object.values(SETTINGS).map((setting) => {
    const values =
      setting.kind === 'integer'
        ? `${setting.min}${setting.max !== undefined ? `–${setting.max}` : ' or more'}`
        : setting.kind === 'choice'
          ? setting.choices.map((choice) => `\`${choice}\``).join(', ')
          : 'text'
    const defaultValue = setting.default === undefined ? '(none)' : String(setting.default)
    return `| ${setting.variable} | \`--${flagOf(setting.variable)}\` | ${defaultValue} | ${values} | ${cell(setting.description)} |`
  })
  return ['', '', '| variable | flag | default | values | meaning |', '|---|---|---|---|---|', ...rows, '', ''].join('\n')
}

type PartName = 'operation-count' | 'operation-index' | 'get-operations' | 'browser-operations' | 'operations' | 'workflows' | 'configuration'

/** Every generated part, by the name its markers give it. */
async function generatedParts(): Promise<Record<PartName, string>> {
  return {
    'operation-count': operationCountPart(),
    'operation-index': operationIndexPart(),
    // The operations that answer GET, and those the web app runs in the page.
    'get-operations': operationNamesPart((operation) => operation.allowGet),
    'browser-operations': operationNamesPart((operation) => operation.runsInBrowser),
    operations: await operationsPart(),
    workflows: await workflowsPart(),
    configuration: configurationPart(),
  }
}

const partPattern = (name: string) => new RegExp(`(<!-- generated: ${name} -->)([\\s\\S]*?)(<!-- end generated -->)`)

/** A document with each of its generated parts rewritten; a part without its markers is an error. */
function withParts(path: string, text: string, parts: Record<string, string>): string {
  let rewritten = text
  for (const [name, content] of Object.entries(parts)) {
    const pattern = partPattern(name)
    if (!pattern.test(rewritten)) throw new Error(`${path} has no <!-- generated: ${name} --> … <!-- end generated --> block`)
    rewritten = rewritten.replace(pattern, (_, start: string, __: string, end: string) => `${start}${content}${end}`)
  }
  return rewritten
}

/** Brings one document up to date, or with `check` says how it differs; true when it was up to date. */
function updated(path: string, parts: Record<string, string>, check: boolean): boolean {
  const file = join(ROOT, path)
  const text = readFileSync(file, 'utf8')
  const expected = withParts(path, text, parts)
  const stale = Object.keys(parts).filter((name) => text.match(partPattern(name))?.[2] !== parts[name])
  if (stale.length === 0) return true
  if (check) {
    console.error(`${path} is out of date in its generated parts (${stale.join(', ')}); \`npm run docs\` rewrites them:\n`)
    console.error(createTwoFilesPatch(path, `${path} (npm run docs)`, text, expected, undefined, undefined, { context: 1 }))
    return false
  }
  writeFileSync(file, expected)
  console.log(`${path}: rewrote ${stale.join(', ')}`)
  return true
}

async function main(args: string[]): Promise<number> {
  const check = args.includes('--check')
  const parts = await generatedParts()
  let upToDate = true
  for (const [path, names] of Object.entries(DOCUMENTS)) {
    const ownParts = Object.fromEntries(names.map((name) => [name, parts[name]]))
    if (!updated(path, ownParts, check)) upToDate = false
  }
  if (!check) console.log('the generated parts are up to date')
  return upToDate ? 0 : 1
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    process.exitCode = await main(process.argv.slice(2))
  } catch (error) {
    console.error(`docs: ${(error as Error).message}`)
    process.exitCode = 1
  } finally {
    await closeWorkerPool()
  }
}
