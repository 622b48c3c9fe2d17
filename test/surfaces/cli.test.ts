import assert from 'node:assert/strict'
import { execFile, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { parseOperationArgs, UsageError } from '../../src/cli/flags.ts'
import { exampleArgs, operationHelp, shellQuote } from '../../src/cli/help.ts'
import { catalogue } from '../../src/core/catalogue.ts'
import { execute } from '../../src/core/execute.ts'
import { closeWorkerPool } from '../../src/core/pool.ts'
import { servedOperations } from '../../src/served-operations.ts'
import { buildTestApp, devutils, post } from '../helpers.ts'
import { freePort, ROOT, spawnUntil } from '../processes.ts'

const operation = (name: string) => servedOperations.find((candidate) => candidate.name === name)!

describe('devutils, spawned', { concurrency: 4 }, () => {
  let app: FastifyInstance
  before(async () => {
    app = await buildTestApp()
  })
  after(() => app.close())

  test('runs an operation with typed flags, camelCase or kebab-case', async () => {
    const passwords = await devutils(['password', '--length', '12', '--count', '3', '--no-symbols'])
    assert.equal(passwords.code, 0, passwords.stderr)
    const lines = passwords.stdout.split('\n')
    assert.equal(lines.pop(), '')
    assert.equal(lines.length, 3)
    for (const line of lines) assert.match(line, /^[A-Za-z0-9]{12}$/)
    const binary = await devutils(['base-convert', '--input', '255', '--from-base', '10', '--toBase', '2'])
    assert.deepEqual(binary, { code: 0, stdout: '11111111\n', stderr: '' })
  })

  test('reads input from standard input, less one trailing line ending unless --raw-stdin', async () => {
    assert.deepEqual(await devutils(['base64'], { stdin: 'hi\r\n' }), { code: 0, stdout: 'aGk=\n', stderr: '' })
    assert.deepEqual(await devutils(['base64', '--raw-stdin'], { stdin: 'hi\n' }), { code: 0, stdout: 'aGkK\n', stderr: '' })
  })

  test('heavy input from standard input runs on a worker thread under the launcher', async () => {
    const yaml = Array.from({ length: 200 }, (_, i) => `key${i}: value ${i}`).join('\n')
    assert.ok(yaml.length > 1024)
    const run = await devutils(['yaml-json'], { stdin: yaml })
    assert.equal(run.code, 0, run.stderr)
    assert.deepEqual(JSON.parse(run.stdout), Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`key${i}`, `value ${i}`])))
  })

  test('--json prints the whole envelope, with the data HTTP answers', async () => {
    const run = await devutils(['base64', '--input', 'hi', '--json'])
    assert.equal(run.code, 0, run.stderr)
    const envelope = JSON.parse(run.stdout)
    const http = await post(app, 'base64', { input: 'hi' })
    assert.deepEqual(Object.keys(envelope), ['success', 'data', 'meta'])
    assert.equal(envelope.success, true)
    assert.deepEqual(envelope.data, http.body.data)
    assert.equal(typeof envelope.meta.processingTime, 'number')
    assert.match(envelope.meta.requestId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  })

  test('a value the schema refuses: the HTTP code and message on stderr, exit 1; --json adds the error envelope', async () => {
    const http = await post(app, 'base-convert', { input: '12', toBase: 99 })
    assert.equal(http.status, 400)
    const run = await devutils(['base-convert', '--input', '12', '--toBase', '99'])
    assert.deepEqual(run, { code: 1, stdout: '', stderr: `devutils: VALIDATION_ERROR: ${http.body.error!.message}\n` })
    const json = await devutils(['base-convert', '--input', '12', '--toBase', '99', '--json'])
    assert.equal(json.code, 1)
    const envelope = JSON.parse(json.stdout)
    assert.equal(envelope.success, false)
    assert.deepEqual(envelope.error, http.body.error)
    assert.equal(json.stderr, run.stderr)
  })

  test('content that only processing refuses (422) gives the same message as HTTP', async () => {
    const http = await post(app, 'base-convert', { input: '12z', fromBase: 10 })
    assert.equal(http.status, 422)
    const run = await devutils(['base-convert', '--fromBase', '10'], { stdin: '12z\n' })
    assert.deepEqual(run, { code: 1, stdout: '', stderr: `devutils: INVALID_INPUT: ${http.body.error!.message}\n` })
  })

  test('bad usage exits 2: an unknown flag (named, with the flags listed), an unreadable value, an unknown command', async () => {
    const unknown = await devutils(['base64', '--input', 'hi', '--frombase', '2'])
    assert.equal(unknown.code, 2)
    assert.equal(unknown.stdout, '')
    assert.match(unknown.stderr, /unknown flag --frombase for base64/)
    for (const field of Object.keys(operation('base64').input.properties)) assert.ok(unknown.stderr.includes(`--${field}`), field)
    const unreadable = await devutils(['password', '--length', 'abc'])
    assert.deepEqual(unreadable, { code: 2, stdout: '', stderr: "devutils: --length takes an integer from 4 to 1024, not 'abc'\n" })
    const command = await devutils(['bas64'])
    assert.equal(command.code, 2)
    assert.match(command.stderr, /unknown command 'bas64'/)
  })

  test('hash with --expected that does not match prints the digest and exits 1', async () => {
    const run = await devutils(['hash', '--input', 'abc', '--algorithm', 'md5', '--expected', '00'])
    assert.deepEqual(run, { code: 1, stdout: '900150983cd24fb0d6963f7d28e17f72\n', stderr: 'devutils: the hash does not match --expected\n' })
  })

  test('list prints every operation aligned; --json prints the catalogue GET /api/v1 answers', async () => {
    const run = await devutils(['list'])
    assert.equal(run.code, 0, run.stderr)
    const lines = run.stdout.trimEnd().split('\n')
    assert.equal(lines.length, servedOperations.length)
    const summaryColumn = lines[0].indexOf(servedOperations[0].summary)
    for (const [i, served] of servedOperations.entries()) {
      assert.match(lines[i], new RegExp(`^${served.name} +${served.category} +`))
      assert.equal(lines[i].indexOf(served.summary), summaryColumn)
    }
    const json = await devutils(['list', '--json'])
    assert.deepEqual(JSON.parse(json.stdout), { operations: catalogue(servedOperations) })
  })

  test('<operation> --help names every field with its default, and help <operation> says the same', async () => {
    const run = await devutils(['base64', '--help'])
    assert.equal(run.code, 0, run.stderr)
    for (const [field, schema] of Object.entries<Record<string, unknown>>(operation('base64').input.properties)) {
      assert.ok(run.stdout.includes(`--${field}`), field)
      if ('default' in schema) assert.ok(run.stdout.includes(`default: ${schema.default}`), `${field} default`)
    }
    assert.match(run.stdout, /\$ devutils base64 --input hi\n {4}aGk=\n/)
    assert.deepEqual(await devutils(['help', 'base64']), run)
  })

  test('pipeline takes --steps as JSON and its input from standard input', async () => {
    const run = await devutils(['pipeline', '--steps', '[{"operation":"rot13"},{"operation":"base64"}]'], { stdin: 'hello\n' })
    assert.deepEqual(run, { code: 0, stdout: 'dXJ5eWI=\n', stderr: '' })
  })

  test('an operation without input never waits for standard input; empty standard input is no input', async () => {
    const child = spawn(process.execPath, ['bin/devutils.js', 'uuid'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    const code = await new Promise((resolve) => child.once('close', resolve))
    assert.equal(code, 0)
    assert.match(stdout, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\n$/)
    // Its inspect action reads standard input, as every action that takes the input does.
    const inspected = await devutils(['uuid', '--action', 'inspect'], { stdin: '017F22E2-79B0-7CC3-98C4-DC0C0C07398F\n' })
    assert.deepEqual(inspected, { code: 0, stdout: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f\n', stderr: '' })
    const now = await devutils(['timestamp', '--json'], { stdin: '' })
    assert.equal(now.code, 0, now.stderr)
    assert.ok(Math.abs(JSON.parse(now.stdout).data.unixMs - Date.now()) < 60_000)
  })

  test('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    assert.deepEqual(await devutils(['--version']), { code: 0, stdout: `${version}\n`, stderr: '' })
  })

  test('serve --port answers /health and stops with exit 0 on SIGTERM', async () => {
    const port = await freePort()
    const server = await spawnUntil(process.execPath, ['bin/devutils.js', 'serve', '--port', String(port)], /Server listening/, { env: { LOG_LEVEL: 'info' } })
    try {
      const health = await fetch(`http://127.0.0.1:${port}/health`)
      assert.equal(health.status, 200)
      assert.equal(((await health.json()) as { data: { status: string } }).data.status, 'ok')
      server.child.kill('SIGTERM')
      assert.deepEqual(await server.exited, { code: 0, signal: null })
    } finally {
      server.child.kill('SIGKILL')
    }
  })

  test('mcp answers an initialize request with a JSON-RPC response, and exits when standard input closes', async () => {
    const child = spawn(process.execPath, ['bin/devutils.js', 'mcp'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
    const exited = new Promise((resolve) => child.once('close', resolve))
    let stdout = ''
    const firstLine = new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk
        if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')))
      })
    })
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli-test', version: '1' } },
    }
    child.stdin.write(`${JSON.stringify(initialize)}\n`)
    const response = JSON.parse(await firstLine)
    assert.equal(response.jsonrpc, '2.0')
    assert.equal(response.id, 1)
    assert.equal(response.result.serverInfo.name, 'devutils')
    child.stdin.end()
    assert.equal(await exited, 0)
  })
})

describe('flags typed by the schema', () => {
  const fields = (name: string, args: string[]) => parseOperationArgs(operation(name), args).fields

  test('integers, enums and text; camelCase and kebab-case names; --name=value', () => {
    assert.deepEqual(fields('base-convert', ['--input', 'ff', '--from-base', '16', '--toBase=2']), { input: 'ff', fromBase: 16, toBase: 2 })
    assert.deepEqual(fields('password', ['--length', '12.5']), { length: 12.5 })
    assert.deepEqual(fields('random-number', ['--min', '-5', '--sort', 'desc']), { min: -5, sort: 'desc' })
    assert.deepEqual(fields('morse', ['--dot=--', '--input', '-x']), { dot: '--', input: '-x' })
  })

  test('switches: --x, --no-x, --x=false, --x false', () => {
    assert.deepEqual(fields('hex-text', ['--uppercase']), { uppercase: true })
    assert.deepEqual(fields('hex-text', ['--no-uppercase']), { uppercase: false })
    assert.deepEqual(fields('csv-json', ['--no-dynamic-typing', '--quote-all=true']), { dynamicTyping: false, quoteAll: true })
    assert.deepEqual(fields('hex-text', ['--uppercase=false']), { uppercase: false })
    assert.deepEqual(fields('hex-text', ['--uppercase', 'false', '--input', 'x']), { uppercase: false, input: 'x' })
  })

  test('unions: a number where the schema takes one and the text says exactly that number', () => {
    assert.deepEqual(fields('uuid', ['--version', '4']), { version: 4 })
    assert.deepEqual(fields('uuid', ['--version', 'nil']), { version: 'nil' })
    assert.deepEqual(fields('ip-address', ['--version', '6']), { version: 6 })
    assert.deepEqual(fields('timestamp', ['--input', '1700000000']), { input: 1700000000 })
    assert.deepEqual(fields('timestamp', ['--input', '2023-11-14T22:13:20Z']), { input: '2023-11-14T22:13:20Z' })
    const digits = '123456789012345678901234567890'
    assert.deepEqual(fields('base-convert', ['--input', digits]), { input: digits })
    assert.deepEqual(fields('base-convert', ['--input', '0010']), { input: '0010' })
  })

  test('object and array fields take JSON text; fields that take text keep it', () => {
    assert.deepEqual(fields('slug', ['--replacements', '{"&":"and"}']), { replacements: { '&': 'and' } })
    assert.deepEqual(fields('csv-json', ['--columns', '["a","b"]']), { columns: ['a', 'b'] })
    assert.deepEqual(fields('csv-json', ['--input', '[{"a":1}]']), { input: '[{"a":1}]' })
    assert.deepEqual(fields('pipeline', ['--input', '42', '--steps', '[{"operation":"rot13"}]']), { input: '42', steps: [{ operation: 'rot13' }] })
  })

  test('global flags', () => {
    assert.deepEqual(parseOperationArgs(operation('base64'), ['--json', '--raw-stdin', '--help']), { fields: {}, json: true, rawStdin: true, help: true })
  })

  const usage = (name: string, args: string[], message: RegExp) =>
    assert.throws(
      () => parseOperationArgs(operation(name), args),
      (error: unknown) => error instanceof UsageError && message.test(error.message),
    )

  test('what cannot be read is a usage error that says why', () => {
    usage('password', ['--length', 'abc'], /^--length takes an integer from 4 to 1024, not 'abc'$/)
    usage('hex-text', ['--uppercase=maybe'], /^--uppercase takes a boolean, not 'maybe'$/)
    usage('csv-json', ['--columns', 'a,b'], /^--columns takes JSON text/)
    usage('slug', ['--replacements', '{"__proto__":{"x":"y"}}'], /^--replacements takes JSON text/)
    usage('password', ['--length', '8', '--length', '9'], /^--length is given more than once$/)
    usage('password', ['--length'], /^--length needs a value/)
    usage('base64', ['--input', '--json'], /^--input needs a value/)
    usage('base64', ['hello'], /^unexpected argument 'hello'; base64 takes only flags, and its input with --input or on standard input$/)
    usage('hex-text', ['--no-uppercase=true'], /^--no-uppercase takes no value/)
    usage('base64', ['--Input', 'x'], /^unknown flag --Input for base64; its flags are --input, --action/)
  })
})

describe('help generated from the schemas', () => {
  after(() => closeWorkerPool())

  test('every operation names each field, its placeholder or switch, and its default', () => {
    for (const served of servedOperations) {
      const help = operationHelp(served)
      assert.ok(help.startsWith(`devutils ${served.name}: ${served.summary}`), served.name)
      const required = new Set(served.input.required ?? [])
      for (const [field, schema] of Object.entries<Record<string, unknown>>(served.input.properties)) {
        const start = help.search(new RegExp(`\\n  --${field}[ ,]`))
        assert.ok(start >= 0, `${served.name} --${field}`)
        const block = help.slice(start + 1, help.indexOf('\n  -', start + 1))
        if (required.has(field)) assert.match(block, /; required\n/, `${served.name} ${field} required`)
        if ('default' in schema) {
          const { default: value } = schema
          assert.ok(block.includes(`default: ${value}\n`) || block.includes(`default: ${JSON.stringify(value)}\n`), `${served.name} ${field} default`)
        }
      }
    }
  })

  test('every example, given as the command line its help shows, gives the example output', async () => {
    for (const served of servedOperations) {
      for (const example of served.examples) {
        const args = exampleArgs(served, example.input as Record<string, unknown>)
        const data = await execute(served, parseOperationArgs(served, args).fields)
        if (example.output !== undefined) assert.deepEqual(data, example.output, `${served.name}: ${example.summary}`)
      }
    }
  })

  test('a text value that looks like a flag is written --field=value', () => {
    const args = exampleArgs(operation('morse'), { input: 'e', dot: '--x' })
    assert.deepEqual(args, ['--input', 'e', '--dot=--x'])
    assert.deepEqual(parseOperationArgs(operation('morse'), args).fields, { input: 'e', dot: '--x' })
  })

  test('shellQuote gives words a shell reads back as they were', async () => {
    const words = ['plain', 'two words', "it's", 'a\nb\r\tc', '$HOME `x` "q"', 'é ☃ \\', '', '--x=1']
    const script = `printf '%s\\0' ${words.map(shellQuote).join(' ')}`
    const stdout = await new Promise<string>((resolve, reject) => execFile('bash', ['-c', script], (error, out) => (error ? reject(error) : resolve(out))))
    assert.deepEqual(stdout.split('\0').slice(0, -1), words)
  })
})
