import type { CodeBudgetSetting, CodeBudgets } from './operation.ts'

/**
 * The service's settings, in one table: each with its environment variable, its default, what it
 * means and how its text is read. The `Config` type, the defaults, the environment parsing, the
 * `devutils serve` flags (PORT → --port) and the configuration table of docs/DEPLOYMENT.md all come from it.
 */

interface IntegerSetting {
  variable: string
  kind: 'integer'
  default: number
  min: number
  max?: number
  description: string
}

interface ChoiceSetting<T extends string> {
  variable: string
  kind: 'choice'
  default: T
  choices: readonly T[]
  description: string
}

interface TextSetting {
  variable: string
  kind: 'text'
  /** Undefined where the setting is off unless given. */
  default: string | undefined
  description: string
}

type Setting = IntegerSetting | ChoiceSetting<string> | TextSetting

const integer = (variable: string, defaultValue: number, min: number, description: string, max?: number): IntegerSetting => ({
  variable,
  kind: 'integer',
  default: defaultValue,
  min,
  max,
  description,
})
const choice = <const T extends string>(variable: string, defaultValue: T, choices: readonly T[], description: string): ChoiceSetting<T> => ({
  variable,
  kind: 'choice',
  default: defaultValue,
  choices,
  description,
})
const text = (variable: string, defaultValue: string | undefined, description: string): TextSetting => ({
  variable,
  kind: 'text',
  default: defaultValue,
  description,
})

export const SETTINGS = {
  port: integer('PORT', 3000, 0, 'listening port', 65535),
  host: text('HOST', '127.0.0.1', 'listening address; 0.0.0.0 in a container (the image sets it)'),
  workers: integer('WORKERS', 1, 1, 'server processes sharing the port through `node:cluster`', 256),
  bodyLimit: integer('BODY_LIMIT', 1_048_576, 1, 'largest request body, in bytes'),
  rateLimitMax: integer('RATE_LIMIT_MAX', 1000, 0, 'requests per window per client; 0 turns the limiter off'),
  rateLimitWindow: integer('RATE_LIMIT_WINDOW', 60_000, 1, 'the rate-limit window, in milliseconds'),
  redisUrl: text('REDIS_URL', undefined, 'a Redis shared by all instances for their rate-limit counters, e.g. `redis://10.0.0.5:6379`'),
  trustProxy: text(
    'TRUST_PROXY',
    undefined,
    'which proxies to trust for the client address: `true`, a hop count, or a comma-separated list of addresses and CIDR ranges',
  ),
  timeBudgetMs: integer('TIME_BUDGET_MS', 5000, 1, 'processing time budget of one request (a pipeline or batch shares one)'),
  regexTimeBudgetMs: integer(
    'REGEX_TIME_BUDGET_MS',
    1000,
    1,
    'how long one `regex` call may run once a worker thread has begun it (waiting for the thread counts against TIME_BUDGET_MS): a pattern that backtracks catastrophically is stopped past it',
  ),
  jqTimeBudgetMs: integer(
    'JQ_TIME_BUDGET_MS',
    2000,
    1,
    'how long one `jq` call may run once a worker thread has begun it (waiting for the thread counts against TIME_BUDGET_MS): a program that runs on is stopped past it',
  ),
  requestTimeoutMs: integer('REQUEST_TIMEOUT_MS', 10_000, 1, 'time a client has to send its whole request (its headers included)'),
  keepAliveTimeoutMs: integer(
    'KEEP_ALIVE_TIMEOUT_MS',
    72_000,
    1,
    'how long an idle connection is kept open for a next request; keep it longer than the idle timeout of any load balancer in front (often 60 s), so that the balancer, not the service, closes idle connections',
  ),
  mcpTools: choice(
    'MCP_TOOLS',
    'discovery',
    ['discovery', 'all'],
    'what MCP lists when a client asks for no subset: `discovery` (three tools that reach every operation) or `all` (every operation as its own tool)',
  ),
  logLevel: choice('LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'pino level'),
} satisfies Record<string, Setting>

type Settings = typeof SETTINGS

type ValueOf<S> = S extends ChoiceSetting<infer T> ? T : S extends IntegerSetting ? number : string | undefined

/** The service's settings, read from the environment (README, Configuration). */
export type Config = { [K in keyof Settings]: ValueOf<Settings[K]> }

/** The settings that give an operation running untrusted code (a pattern, a program) a budget of its own. */
export type { CodeBudgetSetting, CodeBudgets }
/** Every time budget a surface passes on to the calls it serves. */
export type TimeBudgets = Pick<Config, 'timeBudgetMs' | CodeBudgetSetting>

const entries = Object.entries(SETTINGS) as Array<[keyof Config, Setting]>

export const DEFAULT_CONFIG = Object.fromEntries(entries.map(([key, setting]) => [key, setting.default])) as Config

/** The environment variables of the configuration, in the table's order. */
export const CONFIG_VARIABLES: readonly string[] = entries.map(([, setting]) => setting.variable)

/** The flag that mirrors a variable: BODY_LIMIT → body-limit. */
export const flagOf = (variable: string) => variable.toLowerCase().replaceAll('_', '-')

/** A setting's value from its text; a malformed one is an error naming the variable. */
function read(setting: Setting, value: string): unknown {
  if (setting.kind === 'text') return value
  if (setting.kind === 'choice') {
    if (!setting.choices.includes(value)) throw new Error(`${setting.variable} must be one of ${setting.choices.join(', ')}, not '${value}'`)
    return value
  }
  const number = Number(value)
  const max = setting.max ?? Number.MAX_SAFE_INTEGER
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < setting.min || number > max) {
    throw new Error(`${setting.variable} must be an integer from ${setting.min} to ${max}, not '${value}'`)
  }
  return number
}

/** Reads the configuration; a malformed value is an error at start-up, never a silent default. */
export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): Config {
  return Object.fromEntries(
    entries.map(([key, setting]) => {
      const value = env[setting.variable]
      return [key, value === undefined || value === '' ? setting.default : read(setting, value)]
    }),
  ) as Config
}
