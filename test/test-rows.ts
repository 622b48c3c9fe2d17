/**
 * What an operation adds to the registry-wide tests: src/operations/<name>/test-rows.ts exports
 * `testRows`, and test/collected-rows.ts reads every folder's, so an operation's rows live with it and
 * adding one edits no shared file. The operation is the folder's name.
 */
export interface OperationTestRows {
  /** Payloads built to hurt it, and the answer each must get (test/registry-wide/surfaces.test.ts). */
  hostile?: readonly HostileRow[]
  /** Inputs that grow its largest array, string or buffer, sent on worker threads (test/registry-wide/worker-memory.test.ts). */
  heavy?: readonly HeavyRow[]
  /** Everyday tasks in an agent's words that MCP's find_operations must answer with it first (test/surfaces/mcp-discovery.test.ts). */
  mcpTasks?: readonly McpTaskRow[]
  /** What people type into a launcher that must rank it first (test/surfaces/mcp-discovery.test.ts). */
  searchWords?: readonly string[]
}

/** A body sent to an operation, and the answer it must get. */
export interface HostileInput {
  /** What the body is, for a test's name. */
  name: string
  operation: string
  body: Record<string, unknown>
  status: number
  /** The error's code; '' for a 200. */
  code: string
  /** A field the error's details must name (itself or one of its items). */
  field?: string
  /** What the error's message must say. */
  message?: RegExp
}
export type HostileRow = Omit<HostileInput, 'operation'>

export interface HeavyInput {
  operation: string
  summary: string
  input: Record<string, unknown>
  /**
   * Made of many small objects rather than one large array or string, so that it may reach the
   * worker's heap limit and end alone (422 LIMIT_EXCEEDED, details.memoryLimitMb); every other input
   * must be answered, or refused by a bound, before the heap fills.
   */
  manySmallObjects?: true
}
export type HeavyRow = Omit<HeavyInput, 'operation'>

/** A task in an agent's words, the fields the agent then sends, and what the answer's data must hold. */
export interface McpTaskRow {
  task: string
  arguments: Record<string, unknown>
  check: (data: Record<string, unknown>) => void
}

export const hostile = (name: string, body: Record<string, unknown>, status: number, code = ''): HostileRow => ({ name, body, status, code })
