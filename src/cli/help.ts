import type { OperationInfo } from '../core/operation.ts'
import { type FieldKind, fieldKind } from '../core/text-values.ts'
import { describe } from '../core/validate.ts'
import { isSwitch, LOOKS_LIKE_FLAG, takesJson } from './flags.ts'
import { formatResult } from './output.ts'

type JsonSchema = Record<string, unknown>

export const USAGE = `Usage:
  devutils <operation> [--field value …]   run an operation locally and print its result
  devutils <operation> --help              the operation's fields, defaults and examples
  devutils list [--json]                   the operations, by name, category and summary
  devutils serve [--port n] [--workers n] …  start the HTTP service (a flag for every setting:
                                           --port, --body-limit, --log-level… override PORT, BODY_LIMIT…)
  devutils mcp                             speak the Model Context Protocol on standard input and output
  devutils help [command]                  this text, or a command's or an operation's help
  devutils --version

Running an operation:
  Fields are flags named as in the API, camelCase or kebab-case (--fromBase 2, --from-base 2).
  Numbers and booleans are read as the field's schema says; booleans are switches (--uppercase,
  --no-uppercase, --uppercase=false); object and array fields take JSON text.
  When --input is not given and standard input is a pipe or a file, input is read from it, less one
  trailing newline (--raw-stdin keeps it); empty standard input counts as no input.
  The result is printed as it is when it is text, as JSON otherwise; a generator's results are
  printed one per line. --json prints the whole envelope { success, data, meta } instead, as the
  HTTP service answers it, and on failure the error envelope.
  An operation has no time budget unless TIME_BUDGET_MS (milliseconds) sets one.

Exit status:
  0  success
  1  the input was refused or the operation failed: "devutils: CODE: message" on standard error,
     with the same code and message as over HTTP; also a check that fails (a digest that does not match
     --expected, a password, code or token that does not verify)
  2  bad usage: an unknown command or flag, or a flag value that cannot be read as its type
     (--length abc); a value that can be read but is out of bounds (--length 5000) is status 1
`

const WIDTH = 80

function wrap(text: string, indent: string): string {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line !== '' && indent.length + line.length + 1 + word.length > WIDTH) {
        lines.push(indent + line)
        line = word
      } else {
        line = line === '' ? word : `${line} ${word}`
      }
    }
    lines.push(indent + line)
  }
  return lines.join('\n')
}

/** `devutils list`: one aligned line per operation. */
export function listText(operations: readonly OperationInfo[]): string {
  const nameWidth = Math.max(...operations.map((operation) => operation.name.length))
  const categoryWidth = Math.max(...operations.map((operation) => operation.category.length))
  return operations.map((operation) => `${operation.name.padEnd(nameWidth)}  ${operation.category.padEnd(categoryWidth)}  ${operation.summary}`).join('\n')
}

function placeholder(kind: FieldKind): string {
  if (takesJson(kind)) return '<json>'
  const words = [...[...kind.types].map((type) => (type === 'string' ? 'text' : type)), ...kind.choices.map(shown)]
  return words.length === 0 ? '<value>' : `<${words.join('|')}>`
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`

/** Bounds that `describe` leaves out. */
function extraBounds(schema: JsonSchema): string[] {
  const bounds: string[] = []
  if (typeof schema.multipleOf === 'number') bounds.push(`a multiple of ${schema.multipleOf}`)
  if (typeof schema.minLength === 'number') bounds.push(`at least ${count(schema.minLength, 'character')}`)
  if (typeof schema.minItems === 'number') bounds.push(`at least ${count(schema.minItems, 'item')}`)
  if (typeof schema.maxItems === 'number') bounds.push(`at most ${count(schema.maxItems, 'item')}`)
  if (typeof schema.maxProperties === 'number') bounds.push(`at most ${schema.maxProperties} entries`)
  if (schema.uniqueItems === true) bounds.push('no repeated items')
  return bounds
}

/** A value as it reads best in help: plain text unless blanks or control characters hide in it. */
function shown(value: unknown): string {
  return typeof value === 'string' && /^[^\s\p{Cc}"|]+$/u.test(value) ? value : JSON.stringify(value)
}

function fieldHelp(name: string, schema: JsonSchema, required: boolean): string {
  const kind = fieldKind(schema)
  const flag = isSwitch(kind) ? `--${name}, --no-${name}` : `--${name} ${placeholder(kind)}`
  const type = kind.types.size === 0 && kind.choices.length === 0 ? 'any value, given here as text' : describe(schema)
  // describe() names choices such as a tab or CRLF as they are; help spells them out.
  const facts = [type.replace(/\p{Cc}/gu, (char) => JSON.stringify(char).slice(1, -1)), ...extraBounds(schema)]
  if (required) facts.push('required')
  else if ('default' in schema) facts.push(`default: ${shown(schema.default)}`)
  else facts.push('optional')
  const lines = [`  ${flag}`, `      ${facts.join('; ')}`]
  if (typeof schema.description === 'string') lines.push(wrap(schema.description, '      '))
  return lines.join('\n')
}

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/

/** Quotes a word for a POSIX shell; text with control characters uses bash's $'…'. */
export function shellQuote(text: string): string {
  if (PLAIN_WORD.test(text)) return text
  if (!/\p{Cc}/u.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`
  const escaped = text.replace(/[\\'\p{Cc}]/gu, (char) => {
    const named: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' }
    return named[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`
  })
  return `$'${escaped}'`
}

/** The command-line arguments that send `input` to the operation, the way `parseOperationArgs` reads them. */
export function exampleArgs(operation: OperationInfo, input: Record<string, unknown>): string[] {
  const properties = operation.input.properties as Record<string, JsonSchema>
  const args: string[] = []
  for (const [field, value] of Object.entries(input)) {
    if (typeof value === 'boolean' && isSwitch(fieldKind(properties[field]))) args.push(value ? `--${field}` : `--no-${field}`)
    else if (typeof value === 'string' && LOOKS_LIKE_FLAG.test(value)) args.push(`--${field}=${value}`)
    else args.push(`--${field}`, typeof value === 'string' ? value : JSON.stringify(value))
  }
  return args
}

/** `devutils <operation> --help`, generated from the operation's schema and examples. */
export function operationHelp(operation: OperationInfo): string {
  const properties = operation.input.properties as Record<string, JsonSchema>
  const required = new Set((operation.input.required as string[] | undefined) ?? [])
  const takesInput = 'input' in properties
  const sections = [
    `devutils ${operation.name}: ${operation.summary} (${operation.category})`,
    wrap(operation.description, ''),
    [
      'Usage:',
      `  devutils ${operation.name} [--field value …] [--json]`,
      ...(takesInput ? [`  … | devutils ${operation.name} [--field value …]   (input from standard input, less one trailing newline)`] : []),
    ].join('\n'),
    ['Fields:', ...Object.entries(properties).map(([name, schema]) => fieldHelp(name, schema, required.has(name)))].join('\n'),
    [
      'Other flags:',
      '  --json        print the whole envelope { success, data, meta } (or the error envelope)',
      ...(takesInput ? ['  --raw-stdin   keep the trailing newline of standard input'] : []),
      '  --help        this text',
    ].join('\n'),
  ]
  if (operation.examples.length > 0) {
    const examples = operation.examples.map((example) => {
      const command = ['devutils', operation.name, ...exampleArgs(operation, example.input as Record<string, unknown>)].map(shellQuote).join(' ')
      const lines = [`  ${example.summary}:`, `    $ ${command}`]
      if (example.output !== undefined)
        lines.push(
          ...formatResult(example.output as Record<string, unknown>)
            .replace(/\r?\n$/, '')
            .split(/\r?\n/)
            .map((line) => `    ${line}`),
        )
      return lines.join('\n')
    })
    sections.push(['Examples:', ...examples].join('\n'))
  }
  return `${sections.join('\n\n')}\n`
}
