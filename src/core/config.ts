/** The service's settings, read from the environment (README, Configuration); `devutils serve` flags mirror them. */
export interface Config {
  port: number
  host: string
  workers: number
  bodyLimit: number
  rateLimitMax: number
  rateLimitWindow: number
  redisUrl: string | undefined
  trustProxy: string | undefined
  timeBudgetMs: number
  requestTimeoutMs: number
  keepAliveTimeoutMs: number
  /** What MCP lists when a client asks for no particular tools: the discovery tools, or every operation directly. */
  mcpTools: 'discovery' | 'all'
  logLevel: string
}

export const DEFAULT_CONFIG: Config = {
  port: 3000,
  host: '127.0.0.1',
  workers: 1,
  bodyLimit: 1_048_576,
  rateLimitMax: 1000,
  rateLimitWindow: 60_000,
  redisUrl: undefined,
  trustProxy: undefined,
  timeBudgetMs: 5000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 72_000,
  mcpTools: 'discovery',
  logLevel: 'info',
}

/** The environment variables of the configuration; `devutils serve` takes each as a flag too (PORT → --port). */
export const CONFIG_VARIABLES = [
  'PORT',
  'HOST',
  'WORKERS',
  'BODY_LIMIT',
  'RATE_LIMIT_MAX',
  'RATE_LIMIT_WINDOW',
  'REDIS_URL',
  'TRUST_PROXY',
  'TIME_BUDGET_MS',
  'REQUEST_TIMEOUT_MS',
  'KEEP_ALIVE_TIMEOUT_MS',
  'MCP_TOOLS',
  'LOG_LEVEL',
] as const

/** The flag that mirrors a variable: BODY_LIMIT → body-limit. */
export const flagOf = (variable: string) => variable.toLowerCase().replaceAll('_', '-')

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = env[name]
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, not '${text}'`)
  }
  return value
}

/** Reads the configuration; a malformed value is an error at start-up, never a silent default. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL || DEFAULT_CONFIG.logLevel
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not '${logLevel}'`)
  const mcpTools = env.MCP_TOOLS || DEFAULT_CONFIG.mcpTools
  if (mcpTools !== 'discovery' && mcpTools !== 'all') throw new Error(`MCP_TOOLS must be discovery or all, not '${mcpTools}'`)
  return {
    port: integer(env, 'PORT', DEFAULT_CONFIG.port, 0, 65535),
    host: env.HOST || DEFAULT_CONFIG.host,
    workers: integer(env, 'WORKERS', DEFAULT_CONFIG.workers, 1, 256),
    bodyLimit: integer(env, 'BODY_LIMIT', DEFAULT_CONFIG.bodyLimit, 1),
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', DEFAULT_CONFIG.rateLimitMax, 0),
    rateLimitWindow: integer(env, 'RATE_LIMIT_WINDOW', DEFAULT_CONFIG.rateLimitWindow, 1),
    redisUrl: env.REDIS_URL || undefined,
    trustProxy: env.TRUST_PROXY || undefined,
    timeBudgetMs: integer(env, 'TIME_BUDGET_MS', DEFAULT_CONFIG.timeBudgetMs, 1),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', DEFAULT_CONFIG.requestTimeoutMs, 1),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', DEFAULT_CONFIG.keepAliveTimeoutMs, 1),
    mcpTools,
    logLevel,
  }
}
