import { existsSync, readdirSync } from 'node:fs'
import type { HeavyInput, HostileInput, McpTaskRow, OperationTestRows } from './test-rows.ts'
import { WORKFLOW_ROWS } from './workflow-rows.ts'

/** Every operation's rows for the registry-wide tests: each folder's test-rows.ts, and the workflows'. */
const OPERATIONS = new URL('../src/operations/', import.meta.url)
const folders = readdirSync(OPERATIONS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`${entry.name}/test-rows.ts`, OPERATIONS)))
  .map((entry) => entry.name)
  .sort()

export const ROWS_BY_OPERATION: ReadonlyMap<string, OperationTestRows> = new Map([
  ...(await Promise.all(
    folders.map(async (name): Promise<[string, OperationTestRows]> => {
      const { testRows } = (await import(new URL(`${name}/test-rows.ts`, OPERATIONS).href)) as { testRows: OperationTestRows }
      return [name, testRows]
    }),
  )),
  ...Object.entries(WORKFLOW_ROWS),
])

const collect = <Row, Collected>(pick: (rows: OperationTestRows) => readonly Row[] | undefined, make: (operation: string, row: Row) => Collected) =>
  [...ROWS_BY_OPERATION].flatMap(([operation, rows]) => (pick(rows) ?? []).map((row) => make(operation, row)))

/** Payloads built to hurt: amplification, deep nesting, oversized counts, impossible values. */
export const HOSTILE_PAYLOADS: readonly HostileInput[] = collect(
  (rows) => rows.hostile,
  (operation, row) => ({ ...row, operation }),
)
/** Inputs crafted to grow the largest array, string or buffer of each operation that offloads, each as large as a request body may make it. */
export const HEAVY_INPUTS: readonly HeavyInput[] = collect(
  (rows) => rows.heavy,
  (operation, row) => ({ ...row, operation }),
)
/** Everyday tasks in an agent's words, the operation that does each, and the fields it then sends. */
export const MCP_TASKS: ReadonlyArray<McpTaskRow & { operation: string }> = collect(
  (rows) => rows.mcpTasks,
  (operation, row) => ({ ...row, operation }),
)
/** What people type into a launcher, and the operation it must rank first. */
export const SEARCH_WORDS: ReadonlyArray<readonly [query: string, operation: string]> = collect(
  (rows) => rows.searchWords,
  (operation, query) => [query, operation] as const,
)
