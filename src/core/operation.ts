import { type Static, type TObject, type TSchema, Type } from 'typebox'
import { Memory } from 'typebox/system'
import { typeEnums } from './schema-types.ts'

/** The categories of operations, as the catalogue groups them. */
export const CATEGORIES = ['encoders', 'generators', 'converters'] as const
/** `workflows` holds the pipeline and the batch, which run other operations. */
export type Category = (typeof CATEGORIES)[number] | 'workflows'

/** What `run` may know of the call besides its input. */
export interface RunContext {
  /** The processing time budget of this call, in milliseconds. */
  timeBudgetMs: number
  /** Hears of a defect the operation answers rather than throws (a batch request's), for the surface to log. */
  reportDefect?(error: unknown): void
  /** The budgets of operations that run untrusted code (see `OperationDefinition.overrun`); the settings' defaults when absent. */
  codeBudgets?: Partial<CodeBudgets>
  /** Who is calling (the client's address), where a surface knows it: calls of untrusted code are counted per client. */
  client?: string
}

/** Keys of an object schema whose property carries a default (see `withDefault`). */
type DefaultedKeys<T extends TObject> = {
  [K in keyof T['properties']]: T['properties'][K] extends { default: unknown } ? K : never
}[keyof T['properties']]

/**
 * What `run` receives: the validated body, with every default filled in, so a defaulted field is
 * never undefined there even though a caller may omit it.
 */
export type OperationInput<T extends TObject> = Static<T> & {
  [K in DefaultedKeys<T> & keyof Static<T>]-?: Exclude<Static<T>[K], undefined>
}

export interface OperationExample<I extends TObject, O extends TSchema> {
  summary: string
  input: Static<I>
  /** Omitted for generators, whose output is random: their examples are checked against the schema only. */
  output?: Static<O>
}

/** The settings (config.ts) that bound an operation running untrusted code, in milliseconds. */
export type CodeBudgetSetting = 'regexTimeBudgetMs' | 'jqTimeBudgetMs'
export type CodeBudgets = Record<CodeBudgetSetting, number>

/** What one action of an operation reads. */
export interface ActionFields {
  /** The fields the action reads, besides `action`. */
  fields: readonly string[]
  /** Of those, the ones it needs beyond the schema's `required`; a list inside names fields of which one is enough. */
  requires?: ReadonlyArray<string | readonly string[]>
  /** The action reads `input` as a file's bytes in base64 (an image to decode): interactive surfaces offer to open a file for it. */
  readsFile?: boolean
}

export interface OperationDefinition<I extends TObject = TObject, O extends TObject = TObject, N extends string = string> {
  /** The kebab-case name: file name, URL segment, OpenAPI operationId, MCP tool and CLI command. */
  name: N
  category: Category
  /** One line for the catalogue. */
  summary: string
  /** A human title, for hosts that show tools to people ("Base64", "UUID"). */
  title: string
  /**
   * The words users say for this operation besides its name: other names, algorithms, formats and
   * tasks ("epoch", "sha256", "prettify"). The search (core/search.ts) ranks by them.
   */
  aliases: readonly string[]
  /** A paragraph or two for the OpenAPI document and `--help`. */
  description: string
  input: I
  output: O
  examples: Array<OperationExample<I, O>>
  /** Answers `GET /api/v1/<name>?field=value…` too (generators that need no secret). */
  allowGet?: boolean
  /** Values of `action` that GET refuses even so: those that read a body-sized input (an image), which has no place in a URL. */
  postOnlyActions?: readonly string[]
  /**
   * For an operation with an `action` field: each action's fields (besides `action`), and those it
   * requires that the schema cannot mark required since other actions do without them. Interactive
   * surfaces show an action's fields alone and send nothing until what it requires is there; the
   * command line waits on standard input only for the actions that read `input` (see `readsInput`).
   */
  actions?: Record<string, ActionFields>
  /**
   * Words for people where the rule of core/labels.ts reads wrong: a field's label by its name, and
   * its choices' labels by field and value. The web app's forms show them; the API, the OpenAPI
   * document, MCP and the command line keep the names.
   */
  labels?: { fields?: Record<string, string>; choices?: Record<string, Record<string, string>> }
  /**
   * With `actions`: a field the caller sent that the chosen action does not read is refused (400)
   * before `run`, even one equal to its default, which `run` cannot tell from its absence once the
   * defaults are filled in. Worth setting once every action lists all the fields it reads.
   */
  refusesOtherActionsFields?: boolean
  /** Strings with lone surrogates are refused (422) before `run`, unless this is true. */
  allowLoneSurrogates?: boolean
  /**
   * The workflows (pipeline, batch) pass each call they hold through `execute`, which checks it;
   * their input is not checked as a whole, so that a bad call fails only itself and is named.
   */
  checksEachCall?: boolean
  /**
   * For an operation that checks something (a digest against `expected`, a password against a hash,
   * a code or a token): the boolean field of its `data` that says whether the check held, and what
   * to say when it did not. The command line then exits 1, as `cmp` and `sha256sum -c` do.
   */
  verdict?: { field: string; failure: string }
  /**
   * Whether this (validated) input is heavy enough to run on a worker thread, off the event loop and
   * within the time budget; inputs it declines run in process, where a thread hop would cost more
   * than the work. It should be cheap: it runs on the event loop for every request.
   */
  offload?(input: OperationInput<I>): boolean
  /**
   * For an operation whose cost its input alone decides (a pattern, a program, a document to format):
   * work on a worker thread stopped past its time budget *while it ran* is 422 LIMIT_EXCEEDED, since
   * the same input would run out again, rather than 503 TIMEOUT; time spent waiting for a thread
   * stays 503. `advice` follows the message that names the limit: the likely cause and what to try.
   * With `budget` the operation runs untrusted code: its budget is the smaller of the call's and
   * that setting's, and one client may have only a few such calls in flight at once.
   */
  overrun?: {
    advice: string
    budget?: CodeBudgetSetting
    /**
     * The run is synchronous and keeps no state between calls, so a worker may stop it where it
     * stands past its budget and go on with the next task: a thread is not lost to each overrun,
     * and calls first run for a short trial (see `execute`).
     */
    interruptible?: boolean
  }
  /**
   * Slow on purpose (a key derivation): interactive surfaces such as the web app run it when asked
   * rather than at every change of a field.
   */
  deliberatelySlow?: boolean
  /**
   * Pure code that needs nothing of a server (no Node.js module but those the web app stands in for,
   * in src/web/stand-ins): the web app runs it in the page, so that its input never leaves the
   * browser and it works offline. Where an answer rests on data the host carries (a zone's rules,
   * Unicode's text segmentation, collation), the page's rests on the browser's. The web app's tests
   * run its examples there.
   */
  runsInBrowser?: boolean
  run(input: OperationInput<I>, context?: RunContext): Static<O> | Promise<Static<O>>
}

/**
 * Exists so TypeScript infers each operation's input and output types; at run time it only gives the
 * schemas' enums their types (see `typeEnums`), for every surface that publishes them.
 */
export function defineOperation<I extends TObject, O extends TObject, const N extends string>(
  definition: OperationDefinition<I, O, N>,
): OperationDefinition<I, O, N> {
  typeEnums(definition.input)
  typeEnums(definition.output)
  return definition
}

/** Any operation, whatever its schemas: what the registry and the adapters hold. */
// biome-ignore lint/suspicious/noExplicitAny: a list of operations of different schemas needs the widest type for both
export type AnyOperation = OperationDefinition<any, any>

/**
 * What every surface lists, routes and documents of an operation without loading its code: its
 * definition less its functions. The build writes each operation's as JSON (see `infoOf`), so a
 * server starts without importing any operation.
 */
export type OperationInfo = Omit<AnyOperation, 'run' | 'offload'>

/** The operation's information (see `OperationInfo`) as plain JSON data, as the build writes it. */
export function infoOf(operation: AnyOperation): OperationInfo {
  const { run: _run, offload: _offload, ...info } = operation
  return JSON.parse(JSON.stringify(info)) as OperationInfo
}

/** An optional property with a default, applied before `run` and shown in the OpenAPI document. */
export function withDefault<T extends TSchema>(type: T, value: Static<T>): ReturnType<typeof Type.Optional<T>> & { default: Static<T> } {
  // Memory.Update copies the schema with TypeBox's hidden kind markers intact; a spread would drop them.
  const withValue = Memory.Update(type, {}, { default: value }) as T
  return Type.Optional(withValue) as ReturnType<typeof Type.Optional<T>> & { default: Static<T> }
}

/**
 * Whether this call (its action asked for, or the default one) reads `input`. Actions that never
 * read it let the command line leave standard input alone (`devutils uuid` in a script must not hang).
 */
export function readsInput(operation: AnyOperation, fields: Record<string, unknown>): boolean {
  if (operation.actions === undefined) return true
  const action = fields.action ?? (operation.input.properties as Record<string, { default?: unknown }>).action?.default
  const described = action === undefined ? undefined : operation.actions[String(action)]
  return described === undefined || described.fields.includes('input')
}
