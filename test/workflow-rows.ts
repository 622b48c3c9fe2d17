import assert from 'node:assert/strict'
import { deepArray } from './hostile-builders.ts'
import { hostile, type OperationTestRows } from './test-rows.ts'

/** The rows of the pipeline and the batch, which have no folder of their own (src/served.ts makes them over the registry). */
export const WORKFLOW_ROWS: Readonly<Record<string, OperationTestRows>> = {
  pipeline: {
    hostile: [
      hostile(
        'JSON nested 100,000 deep to the pipeline',
        { input: deepArray(100_000), steps: [{ operation: 'yaml-json', action: 'jsonToYaml' }] },
        422,
        'LIMIT_EXCEEDED',
      ),
      hostile('pipeline of 21 steps', { input: 'x', steps: Array.from({ length: 21 }, () => ({ operation: 'rot13' })) }, 400, 'VALIDATION_ERROR'),
    ],
    mcpTasks: [
      {
        task: 'run several operations in sequence',
        arguments: { input: 'hello', steps: [{ operation: 'rot13' }, { operation: 'base64' }] },
        check: (data) => assert.equal(data.result, 'dXJ5eWI='),
      },
    ],
  },
  batch: {
    hostile: [hostile('batch of 101 requests', { requests: Array.from({ length: 101 }, () => ({ operation: 'uuid' })) }, 400, 'VALIDATION_ERROR')],
  },
}
