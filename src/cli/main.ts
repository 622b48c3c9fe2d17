import { isUtf8 } from 'node:buffer'
import { randomUUID } from 'node:crypto'
import { inspect, parseArgs } from 'node:util'
import { catalogue } from '../core/catalogue.ts'
import { CONFIG_VARIABLES, type Config, flagOf, loadConfig, SETTINGS, type TimeBudgets } from '../core/config.ts'
import { failure, processingTimeSince } from '../core/envelope.ts'
import { DevutilsError, INTERNAL_ERROR_MESSAGE, invalidInput, isDevutilsError } from '../core/errors.ts'
import { execute } from '../core/execute.ts'
import { type AnyOperation, type OperationInfo, readsInput } from '../core/operation.ts'
import { closeWorkerPool } from '../core/pool.ts'
import { VERSION } from '../core/version.ts'
import { firstInvalidUtf8Offset } from '../lib/bytes/encodings.ts'
import { loadOperation } from '../operations/registry.ts'
import { parseOperationArgs, readFlagValue, UsageError } from './flags.ts'
import { listText, operationHelp, USAGE } from './help.ts'
import { formatResult } from './output.ts'

/** Exit statuses: the input or the operation failed (1), the command line is wrong (2). */
const EXIT_FAILURE = 1
const EXIT_USAGE = 2

const SERVE_USAGE = `Usage: devutils serve [--port n] [--host address] [--workers n] [--body-limit bytes] …
  Starts the HTTP service. Every setting of the environment has a flag that overrides it:
  ${CONFIG_VARIABLES.map((variable) => `--${flagOf(variable)} (${variable})`).join(', ')}.
  SIGTERM or SIGINT shuts it down gracefully.
`

const LIST_USAGE = `Usage: devutils list [--json]
  Lists the operations: name, category and summary. --json prints the catalogue GET /api/v1 answers.
`

const MCP_USAGE = `Usage: devutils mcp [--tools name,name…] [--categories category,category…] [--all]
  Speaks the Model Context Protocol over standard input and output (JSON-RPC, one message per line),
  for MCP clients that start a local process. By default it lists three tools that reach every
  operation: find_operations (from a task in words), describe_operation (its fields) and
  run_operation (run one by name, the pipeline and the batch too). --tools and --categories
  (encoders, generators, converters, workflows) serve those operations as direct tools with their
  full schemas instead; --all (or MCP_TOOLS=all) serves every operation directly. The catalogue, the
  OpenAPI document and each operation's documentation are resources.
`

const COMMAND_USAGE: Record<string, string> = { list: LIST_USAGE, serve: SERVE_USAGE, mcp: MCP_USAGE }

/** The command line's own commands, which no operation may be named after. */
export const COMMANDS = ['help', ...Object.keys(COMMAND_USAGE)]

/**
 * The `devutils` command: runs `args` (the command line after the program name), writes to
 * standard output and error, and sets `process.exitCode`. `serve` returns once it listens, leaving
 * the server to keep the process alive; `mcp` returns when its client closes standard input.
 */
export async function main(args: readonly string[]): Promise<void> {
  if (args[0] !== 'serve' && args[0] !== 'mcp') {
    // A reader that goes away early (`devutils lorem-ipsum --count 10000 | head -1`) is not an error.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
      throw error
    })
  }
  try {
    await dispatch(args)
  } catch (error) {
    process.exitCode = report(error)
  }
}

function report(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`devutils: ${error.message}\n`)
    return EXIT_USAGE
  }
  if (isDevutilsError(error) && error.code !== 'INTERNAL_ERROR') {
    process.stderr.write(`devutils: ${error.code}: ${error.message}\n`)
    return EXIT_FAILURE
  }
  // A defect (thrown as it is, or already answered as INTERNAL_ERROR by a pipeline's step): said the
  // way the service says it, with the stack and its causes for whoever runs the command.
  process.stderr.write(`devutils: INTERNAL_ERROR: ${isDevutilsError(error) ? error.message : INTERNAL_ERROR_MESSAGE}\n${inspect(error)}\n`)
  return EXIT_FAILURE
}

async function dispatch(args: readonly string[]): Promise<void> {
  const [command, ...rest] = args
  switch (command) {
    case undefined:
      process.stderr.write(USAGE)
      process.exitCode = EXIT_USAGE
      return
    case '--help':
    case '-h':
    case 'help':
      if (command === 'help' && rest.length > 0) return write(COMMAND_USAGE[rest[0]] ?? operationHelp(await operationNamed(rest[0])))
      return write(USAGE)
    case '--version':
    case '-v':
      return write(`${VERSION}\n`)
    case 'list':
      return list(rest)
    case 'serve':
      return serve(rest)
    case 'mcp':
      return mcp(rest)
    default:
      return runOperation(await operationNamed(command), rest)
  }
}

function write(text: string): void {
  process.stdout.write(text)
}

/**
 * The operation a command names, loaded alone with its libraries, so that a one-shot call costs the
 * same however many operations the registry holds; the workflows load the operations their steps name.
 */
async function operationNamed(name: string): Promise<AnyOperation> {
  const operation = loadOperation(name) ?? (name === 'pipeline' || name === 'batch' ? import('../served.ts').then((served) => served[name]) : undefined)
  if (operation) return operation
  throw new UsageError(`unknown command '${name}'; devutils list shows the operations, devutils --help the commands`)
}

/** For a command without flags of its own: writes `usage` for --help (true), refuses anything else. */
function showedHelp(command: string, args: readonly string[], usage: string): boolean {
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    write(usage)
    return true
  }
  if (args.length > 0) throw new UsageError(`${command} takes no argument '${args[0]}'\n${usage}`)
  return false
}

async function list(args: readonly string[]): Promise<void> {
  const json = args[0] === '--json'
  if (showedHelp('list', json ? args.slice(1) : args, LIST_USAGE)) return
  const { operations } = (await import('../served.ts')).served
  if (!json) return write(`${listText(operations)}\n`)
  write(`${JSON.stringify({ operations: catalogue(operations) }, null, 2)}\n`)
}

async function serve(args: readonly string[]): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) return write(SERVE_USAGE)
  const server = await import('../server.ts')
  try {
    server.configFromArgs([...args])
  } catch (error) {
    throw new UsageError(`serve: ${(error as Error).message}\n${SERVE_USAGE}`)
  }
  await server.main([...args])
}

async function mcp(args: readonly string[]): Promise<void> {
  const options = mcpOptions(args)
  if (options.help) return write(MCP_USAGE)
  const [{ serveMcpOverStdio }, { parseToolSelection, selectTools }] = await Promise.all([import('../mcp/stdio.ts'), import('../mcp/tools.ts')])
  let tools: OperationInfo[] | undefined
  try {
    tools = selectTools({ ...parseToolSelection((name) => options[name]), all: options.all || loadConfig().mcpTools === 'all' })
  } catch (error) {
    throw new UsageError(`mcp: ${(error as Error).message}\n${MCP_USAGE}`)
  }
  await serveMcpOverStdio({ tools })
  await closeWorkerPool()
}

function mcpOptions(args: readonly string[]): { help?: boolean; tools?: string; categories?: string; all?: boolean } {
  try {
    const options = { help: { type: 'boolean', short: 'h' }, tools: { type: 'string' }, categories: { type: 'string' }, all: { type: 'boolean' } } as const
    return parseArgs({ args: [...args], options }).values
  } catch (error) {
    throw new UsageError(`mcp: ${(error as Error).message}\n${MCP_USAGE}`)
  }
}

async function runOperation(operation: AnyOperation, args: readonly string[]): Promise<void> {
  const parsed = parseOperationArgs(operation, args)
  if (parsed.help) return write(operationHelp(operation))
  const properties = operation.input.properties as Record<string, Record<string, unknown>>
  const { fields } = parsed
  const budgets = timeBudgets()
  let started = performance.now()
  const meta = () => ({ processingTime: processingTimeSince(started), requestId: randomUUID() })
  try {
    // Standard input is read only when it is a pipe or a file, so that a terminal never waits for it.
    if ('input' in properties && !('input' in fields) && !process.stdin.isTTY && readsInput(operation, fields)) {
      const text = await readStdin(parsed.rawStdin)
      if (text !== undefined) fields.input = readFlagValue('input', properties.input, text)
      started = performance.now()
    }
    const data = await execute(operation, fields, {
      timeBudgetMs: budgets.timeBudgetMs,
      codeBudgets: budgets,
      reportDefect: (defect) => process.stderr.write(`devutils: a defect, answered as INTERNAL_ERROR: ${inspect(defect)}\n`),
    })
    if (parsed.json) write(`${JSON.stringify({ success: true, data, meta: meta() }, null, 2)}\n`)
    else {
      write(formatResult(data))
      if (Array.isArray(data.warnings)) for (const warning of data.warnings) process.stderr.write(`devutils: warning: ${warning}\n`)
    }
    if (operation.verdict && data[operation.verdict.field] === false) {
      process.stderr.write(`devutils: ${operation.verdict.failure}\n`)
      process.exitCode = EXIT_FAILURE
    }
  } catch (error) {
    if (parsed.json && !(error instanceof UsageError)) {
      const refused = isDevutilsError(error) ? error : new DevutilsError('INTERNAL_ERROR', INTERNAL_ERROR_MESSAGE)
      write(`${JSON.stringify(failure(refused, meta()), null, 2)}\n`)
    }
    throw error
  } finally {
    await closeWorkerPool()
  }
}

/**
 * A command runs on its user's own machine, where the service's budgets (which keep one request
 * from holding a shared server) would only cut long conversions short, and a cold worker thread's
 * start would eat into them. So there are none unless TIME_BUDGET_MS, REGEX_TIME_BUDGET_MS or
 * JQ_TIME_BUDGET_MS asks for one; Ctrl-C stops the command.
 */
const NO_TIME_BUDGET_MS = 2 ** 31 - 1

const BUDGET_SETTINGS = ['timeBudgetMs', 'regexTimeBudgetMs', 'jqTimeBudgetMs'] as const satisfies ReadonlyArray<keyof TimeBudgets>

function timeBudgets(): TimeBudgets {
  const variables = BUDGET_SETTINGS.map((setting) => SETTINGS[setting].variable)
  let config: Config
  try {
    config = loadConfig(Object.fromEntries(variables.map((variable) => [variable, process.env[variable]])))
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const given = (setting: keyof TimeBudgets) => (process.env[SETTINGS[setting].variable] ? config[setting] : NO_TIME_BUDGET_MS)
  return { timeBudgetMs: given('timeBudgetMs'), regexTimeBudgetMs: given('regexTimeBudgetMs'), jqTimeBudgetMs: given('jqTimeBudgetMs') }
}

/**
 * All of standard input as text, less one trailing line ending (`\n` or `\r\n`, as `echo` and
 * editors add) unless `keepNewline`; undefined when it is empty, which counts as no input at all.
 */
async function readStdin(keepNewline: boolean): Promise<string | undefined> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  const bytes = Buffer.concat(chunks)
  if (bytes.length === 0) return undefined
  if (!isUtf8(bytes)) {
    const position = firstInvalidUtf8Offset(bytes)
    throw invalidInput(
      `Standard input is not valid UTF-8 text (first bad byte at offset ${position}); give bytes as hex or base64 text, with --inputEncoding where the operation has it`,
      { field: 'input', position },
    )
  }
  const text = bytes.toString('utf8')
  return keepNewline ? text : text.replace(/\r?\n$/, '')
}
