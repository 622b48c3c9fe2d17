import { Type } from 'typebox'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { MAX_NESTING_DEPTH, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { jsonStringBytes, parseJsonText } from '../../lib/json/value.ts'
import { JQ_MEMORY_LIMIT_BYTES, JQ_VERSION, type JqRunResult, runJq } from './engine.ts'

const OUTPUTS = ['values', 'text', 'raw'] as const
type Output = (typeof OUTPUTS)[number]

/** The longest filter, in characters. */
export const MAX_FILTER_LENGTH = 10_000
/** The most variables `args` and `jsonArgs` may define together. */
export const MAX_VARIABLES = 100
/** The most UTF-8 bytes of JSON text `jsonArgs` may hold together. */
export const MAX_JSON_ARGS_BYTES = 16 * 1024
/** The most outputs one call may give: each costs the worker a value, however small. */
export const MAX_OUTPUTS = 100_000
/** The most of jq's own message an error repeats, in characters. */
const MAX_MESSAGE_LENGTH = 2_000

/** jq's names of variables (`$name`), as `--arg` takes them. */
const VARIABLE_NAME = '^[A-Za-z_][A-Za-z0-9_]{0,63}$'

/** What kind of failure a 422 INVALID_INPUT is: `details.kind`. */
export const JQ_ERROR_KINDS = ['compile', 'module', 'runtime', 'halt', 'input'] as const
/** Which limit a 422 LIMIT_EXCEEDED reached: `details.reason`. */
export const JQ_LIMIT_REASONS = ['depth', 'jsonArgsSize', 'outputSize', 'outputs', 'memory', 'aborted'] as const

const MEMORY_LIMIT_MB = JQ_MEMORY_LIMIT_BYTES / (1024 * 1024)
const OUTPUT_LIMIT_MIB = OUTPUT_LIMIT_BYTES / (1024 * 1024)

const EXAMPLE_INPUT = '{"users":[{"name":"Ada","langs":["en","fr"]},{"name":"Linus","langs":["fi","sv","en"]}]}'

export const jq = defineOperation({
  name: 'jq',
  category: 'converters',
  summary: 'Run a jq filter on JSON: select, reshape, compute (jq 1.7.1)',
  title: 'jq (JSON processor)',
  aliases: [
    'jq filter',
    'json query',
    'query json',
    'filter json',
    'transform json',
    'reshape json',
    'select from json',
    'extract field',
    'jsonpath',
    'json processor',
    'map json',
    'jq playground',
    'json lines',
    'ndjson',
  ],
  description:
    `Runs \`filter\`, a jq program, on \`input\` with jq ${JQ_VERSION} itself (jqlang's C jq built to WebAssembly, from jq-web), as \`jq -c\` would on the command line; the jq 1.7 manual (jqlang.org/manual/v1.7) is its reference. ` +
    '`input` is JSON text, read as jq reads stdin: a stream of values separated by whitespace, each run through the filter in turn; or a JSON value (a string is read as JSON text, so the string "a" is sent as "\\"a\\""). ' +
    'JSON text reaches jq unparsed, so it keeps number literals as they are written (`100000000000000000001` stays whole in `output: text`). ' +
    '`nullInput` runs the filter once on null (`-n`; `input` and `inputs` still read the stream), `slurp` reads the stream into one array (`-s`), `sortKeys` sorts the keys of every object (`-S`). ' +
    `\`args\` defines string variables (\`--arg name value\`: \`$name\`; any length), \`jsonArgs\` JSON ones (\`--argjson\`; a string is read as JSON text; ${MAX_JSON_ARGS_BYTES / 1024} KiB of JSON text at most together), at most ${MAX_VARIABLES} variables together, with names as jq writes them. ` +
    '`output: values` answers every output as a JSON value in `result` (an array; numbers as JavaScript reads them), `text` as jq prints them, one compact JSON text per line with every digit kept, `raw` the same with strings unquoted (`-r`); lines are separated by a line feed, with none after the last. ' +
    'Each call gets a fresh jq: nothing is shared between calls, there is no file system (modules, `import` and `include`, find nothing) and `$ENV` holds no variable of the server. ' +
    `A filter that does not compile, an \`import\` or \`include\`, an error at run time (\`error\`, a type error), \`halt_error\`, and input that is not JSON are a 422 INVALID_INPUT whose \`details.kind\` is one of ${JQ_ERROR_KINDS.map((kind) => `\`${kind}\``).join(', ')}, with jq's own message, where jq gives them the line and column, and \`details.outputs\`, the outputs jq wrote (before the error; for a stream, jq goes on with the next input after one). ` +
    `Input nested deeper than ${MAX_NESTING_DEPTH} levels, jsonArgs past their size, more than ${MAX_OUTPUTS.toLocaleString('en')} outputs, more than ${OUTPUT_LIMIT_MIB} MiB of output, more than ${MEMORY_LIMIT_MB} MB of memory, and a jq that stops abnormally (values nested thousands deep do that) are a 422 LIMIT_EXCEEDED whose \`details.reason\` says which (${JQ_LIMIT_REASONS.map((reason) => `\`${reason}\``).join(', ')}). ` +
    "Every call runs on a worker thread; a filter still running past its time budget (JQ_TIME_BUDGET_MS, within the call's own; `last(range(1e12))`, `repeat(1) | empty`) is stopped, a 422 LIMIT_EXCEEDED with `details.reason` `timeout`. One client may have two jq or regex calls in flight at once (more is a 429).",
  input: Type.Object(
    {
      filter: Type.String({
        minLength: 1,
        maxLength: MAX_FILTER_LENGTH,
        description: 'The jq program, e.g. `.users[] | select(.age > 30) | .name`.',
        examples: ['.users | map(.name)'],
      }),
      input: withDefault(
        Type.Unknown({
          description:
            'The JSON to filter: JSON text (a stream of values separated by whitespace, each filtered in turn, as jq reads stdin) or a JSON value. A string is read as JSON text (so the string "a" is sent as "\\"a\\"").',
          examples: [EXAMPLE_INPUT],
        }),
        null,
      ),
      nullInput: withDefault(
        Type.Boolean({ description: 'Run the filter once on null instead of on each input (`jq -n`); `input` and `inputs` still read the stream.' }),
        false,
      ),
      slurp: withDefault(Type.Boolean({ description: 'Read the whole stream into one array and run the filter once on it (`jq -s`).' }), false),
      args: Type.Optional(
        Type.Record(Type.String(), Type.String(), {
          maxProperties: MAX_VARIABLES,
          propertyNames: { pattern: VARIABLE_NAME },
          description:
            'String variables, as `--arg name value` defines them: {"name": "Ada"} makes `$name` the string "Ada". Names are letters, digits and _, not starting with a digit.',
        }),
      ),
      jsonArgs: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), {
          maxProperties: MAX_VARIABLES,
          propertyNames: { pattern: VARIABLE_NAME },
          description:
            'JSON variables, as `--argjson name text` defines them: {"min": 30} makes `$min` the number 30. A string is read as JSON text (its number literals kept as written).',
        }),
      ),
      output: withDefault(
        Type.Enum(OUTPUTS, {
          description:
            '`values`: `result` is an array of the outputs as JSON values. `text`: `result` is the outputs as jq prints them, one compact JSON text per line, every digit kept. `raw`: the same with strings written without quotes or escapes (`jq -r`).',
        }),
        'values',
      ),
      sortKeys: withDefault(Type.Boolean({ description: 'Sort the keys of every object in the output (`jq -S`).' }), false),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Union([Type.Array(Type.Unknown()), Type.String()], {
      description: 'values: an array of the outputs. text and raw: the outputs, one per line (a line feed between two, none after the last).',
    }),
    count: Type.Integer({ minimum: 0, description: 'How many outputs the filter gave.' }),
    jqVersion: Type.String({ description: 'The version of jq that ran the filter.' }),
  }),
  examples: [
    {
      summary: 'Pick fields from each element',
      input: { filter: '.users[] | {name, languages: (.langs | length)}', input: EXAMPLE_INPUT },
      output: {
        result: [
          { name: 'Ada', languages: 2 },
          { name: 'Linus', languages: 3 },
        ],
        count: 2,
        jqVersion: JQ_VERSION,
      },
    },
    {
      summary: 'Raw text output, one line per output (jq -r)',
      input: { filter: '.users[] | "\\(.name): \\(.langs | join(", "))"', input: EXAMPLE_INPUT, output: 'raw' },
      output: { result: 'Ada: en, fr\nLinus: fi, sv, en', count: 2, jqVersion: JQ_VERSION },
    },
    {
      summary: 'Variables, and a stream of inputs slurped into one array; big numbers kept as written',
      input: {
        filter: 'map(select(.id > $min)) | {count: length, ids: map(.id)}',
        input: '{"id": 7} {"id": 100000000000000000001}',
        slurp: true,
        jsonArgs: { min: 10 },
        output: 'text',
      },
      output: { result: '{"count":1,"ids":[100000000000000000001]}', count: 1, jqVersion: JQ_VERSION },
    },
  ],
  // Untrusted programs: only a worker thread can be stopped when one loops for ever.
  offload: () => true,
  overrun: {
    advice:
      'a filter that loops for ever (repeat, range with no end, recursion without a base case) or does too much work; bound it with limit, first or a smaller input',
    budget: 'jqTimeBudgetMs',
  },
  run: async ({ filter, input, nullInput, slurp, args = {}, jsonArgs = {}, output, sortKeys }) => {
    const flags = ['-c']
    if (nullInput) flags.push('-n')
    if (slurp) flags.push('-s')
    if (sortKeys) flags.push('-S')
    flags.push(...jsonVariableFlags(args, jsonArgs))
    const text = typeof input === 'string' ? input : JSON.stringify(input)
    assertNestingWithin(text, 'input')
    const outcome = await runJq({ filter, input: text, flags, stringArgs: args, maxOutputBytes: OUTPUT_LIMIT_BYTES, maxOutputs: MAX_OUTPUTS })
    if (outcome.kind !== 'exit' || outcome.exitCode !== 0) throw errorOf(outcome)
    return { result: outputOf(outcome.stdout, output, outcome.outputs), count: outcome.outputs, jqVersion: JQ_VERSION }
  },
})

/**
 * The command-line flags of the JSON variables, each text checked first (so that a mistake names its
 * variable); the string variables go to jq as files. jq copies its arguments onto a small stack,
 * hence the bound on their size.
 */
function jsonVariableFlags(args: Record<string, string>, jsonArgs: Record<string, unknown>): string[] {
  const names = [...Object.keys(args), ...Object.keys(jsonArgs)]
  if (names.length > MAX_VARIABLES) throw validationError('args', `and jsonArgs define ${names.length} variables together, more than ${MAX_VARIABLES}`)
  const twice = Object.keys(jsonArgs).find((name) => Object.hasOwn(args, name))
  if (twice !== undefined) throw validationError(`jsonArgs.${twice}`, `defines $${twice}, which args defines too`)
  const flags: string[] = []
  let size = 0
  for (const [name, value] of Object.entries(jsonArgs)) {
    if (typeof value === 'string') parseJsonText(value, `jsonArgs.${name}`)
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    size += Buffer.byteLength(text) + name.length
    if (size > MAX_JSON_ARGS_BYTES) {
      throw limitExceeded(
        `jsonArgs hold more than ${MAX_JSON_ARGS_BYTES / 1024} KiB of JSON text together; send large data as input (slurp, or input and inputs, read it) or as args`,
        { field: 'jsonArgs', reason: 'jsonArgsSize', limit: MAX_JSON_ARGS_BYTES },
      )
    }
    flags.push('--argjson', name, text)
  }
  return flags
}

/**
 * Refuses JSON text nested deeper than MAX_NESTING_DEPTH before jq reads it (jq's own limit is far
 * deeper than what its WebAssembly build survives). Brackets inside strings do not count; the text
 * need not be valid, jq says what is wrong with it.
 */
function assertNestingWithin(text: string, field: string): void {
  let depth = 0
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (code === 0x22) {
      for (at++; at < text.length; at++) {
        const inString = text.charCodeAt(at)
        if (inString === 0x5c) at++
        else if (inString === 0x22) break
      }
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > MAX_NESTING_DEPTH) {
        throw limitExceeded(`${field} nests arrays and objects deeper than ${MAX_NESTING_DEPTH} levels`, {
          field,
          limit: MAX_NESTING_DEPTH,
          reason: 'depth',
        })
      }
    } else if ((code === 0x5d || code === 0x7d) && depth > 0) {
      depth--
    }
  }
}

const decoder = new TextDecoder()

/**
 * jq's compact output, one JSON text per line, as the caller asked for it. Compact JSON never holds a
 * raw line feed, so each line is one output.
 */
function outputOf(stdout: Uint8Array, output: Output, outputs: number): unknown[] | string {
  const text = decoder.decode(stdout.at(-1) === 0x0a ? stdout.subarray(0, -1) : stdout)
  if (holdsSkippedValue(text)) {
    throw limitExceeded(`The filter built a value nested deeper than the ${JQ_PRINT_DEPTH} levels jq writes out; flatten it before it is output`, {
      reason: 'depth',
      limit: JQ_PRINT_DEPTH,
      outputs,
    })
  }
  if (output === 'values') return text === '' ? [] : (JSON.parse(`[${text.replaceAll('\n', ',')}]`) as unknown[])
  const result =
    output === 'text' || text === ''
      ? text
      : text
          .split('\n')
          .map((line) => (line.startsWith('"') ? (JSON.parse(line) as string) : line))
          .join('\n')
  // As one JSON string the text's quotes and backslashes are escaped again, which can double its size.
  const bytes = jsonStringBytes(result)
  if (bytes > OUTPUT_LIMIT_BYTES) {
    throw limitExceeded(
      `The output would take ${bytes} bytes as a JSON string, more than the ${OUTPUT_LIMIT_MIB} MiB output limit; ask for values, or narrow the filter`,
      {
        reason: 'outputSize',
        limit: OUTPUT_LIMIT_BYTES,
        outputs,
      },
    )
  }
  return result
}

/** How deep jq 1.7 writes a value: deeper parts come out as `<skipped: too deep>`, which is not JSON. */
const JQ_PRINT_DEPTH = 256

/** Whether compact JSON text holds jq's `<skipped: too deep>`: a `<` outside strings, which JSON never has. */
function holdsSkippedValue(text: string): boolean {
  if (!text.includes('<')) return false
  let inString = false
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (inString) {
      if (code === 0x5c) at++
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x3c) return true
  }
  return false
}

const shortened = (message: string) => (message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message)
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`

/** The 422 for a run of jq that did not end well. */
function errorOf(outcome: JqRunResult) {
  switch (outcome.kind) {
    case 'stopped':
      return outcome.reason === 'outputs'
        ? limitExceeded(
            `The filter gave more than ${MAX_OUTPUTS.toLocaleString('en')} outputs and was stopped; collect them into one array with [ … ] or narrow the filter`,
            { reason: 'outputs', limit: MAX_OUTPUTS },
          )
        : limitExceeded(`The filter's output passed the ${OUTPUT_LIMIT_MIB} MiB output limit and was stopped after ${plural(outcome.outputs, 'output')}`, {
            reason: 'outputSize',
            limit: OUTPUT_LIMIT_BYTES,
            outputs: outcome.outputs,
          })
    case 'memory':
      return limitExceeded(`The filter needed more than the ${MEMORY_LIMIT_MB} MB of memory jq may use and was stopped`, {
        reason: 'memory',
        limitMb: MEMORY_LIMIT_MB,
        outputs: outcome.outputs,
      })
    case 'aborted':
      return limitExceeded(`jq stopped abnormally (${shortened(outcome.message)}), as it does on values nested thousands of levels deep`, {
        reason: 'aborted',
        outputs: outcome.outputs,
      })
    case 'exit':
      return exitError(outcome.exitCode, outcome.stderr, outcome.outputs)
  }
}

const COMPILE_ERROR_COUNT = /^jq: \d+ compile errors?$/
const RUNTIME_ERROR = /jq: error \(at [^)\n]*\)(?: \(not a string\))?: /
const PARSE_ERROR = /jq: parse error: (.*?)(?: at line (\d+), column (\d+))?$/m

/** The 422 INVALID_INPUT for jq's exit status and what it wrote to stderr. */
function exitError(exitCode: number, stderr: string, outputs: number) {
  if (exitCode === 3) {
    const message = stderr
      .split('\n')
      .filter((line) => line !== '' && !COMPILE_ERROR_COUNT.test(line))
      .map((line) => line.replace(/^jq: error: /, '').replace(' (Unix shell quoting issues?)', ''))
      .join('\n')
    if (/modul/i.test(message)) {
      return invalidInput(`jq modules (import, include) are not available, as there are no module files: ${shortened(message)}`, {
        kind: 'module',
        message: shortened(message),
      })
    }
    const line = /, line (\d+):/.exec(message)
    return invalidInput(`The filter does not compile: ${shortened(message)}`, {
      kind: 'compile',
      message: shortened(message),
      ...(line ? { line: Number(line[1]) } : {}),
    })
  }
  // jq goes on with the next input of a stream after an error: the first error is the one told.
  const parse = PARSE_ERROR.exec(stderr)
  const runtime = RUNTIME_ERROR.exec(stderr)
  if (parse && (!runtime || parse.index < runtime.index)) {
    const [, problem, line, column] = parse
    return invalidInput(`input is not valid JSON text: ${problem}${line ? ` at line ${line}, column ${column}` : ''}`, {
      kind: 'input',
      field: 'input',
      message: problem,
      ...(line ? { line: Number(line), column: Number(column) } : {}),
      outputs,
    })
  }
  if (runtime) {
    // Its message ends where the next error begins.
    const rest = stderr.slice(runtime.index + runtime[0].length)
    const next = rest.search(/\njq: (?:parse )?error/)
    const message = (next === -1 ? rest : rest.slice(0, next)).replace(/\n$/, '')
    return invalidInput(`The filter failed at run time: ${shortened(message)}`, {
      kind: 'runtime',
      message: shortened(message),
      outputs,
    })
  }
  const message = stderr.replace(/\n$/, '')
  return invalidInput(
    `The filter stopped with halt_error (exit status ${exitCode}) after ${plural(outputs, 'output')}${message ? `: ${shortened(message)}` : ''}`,
    {
      kind: 'halt',
      exitCode,
      message: shortened(message),
      outputs,
    },
  )
}
