import assert from 'node:assert/strict'
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { freePort, ROOT, spawnUntil } from '../processes.ts'

const run = promisify(execFile)
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }

/** `npx devutils …` in the folder the tarball was installed into, as its user would type it. */
const npx = (folder: string, args: string[]) => run('npx', ['--no-install', 'devutils', ...args], { cwd: folder, timeout: 60_000 })

describe('the package: npm pack, installed into an empty folder with its production dependencies only', { timeout: 300_000 }, () => {
  let folder: string
  let files: string[]

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'devutils-package-'))
    // The build npm test made is what is packed: npm pack's own `prepare` would build it again, under
    // the feet of the tests that run beside this one in CI.
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', folder], {
      cwd: ROOT,
      timeout: 120_000,
      maxBuffer: 16 * 2 ** 20,
    })
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>
    files = packed.files.map((file) => file.path)
    await run('npm', ['init', '-y'], { cwd: folder })
    await run('npm', ['install', '--no-audit', '--no-fund', `./${packed.filename}`], { cwd: folder, timeout: 180_000 })
  })

  after(() => rmSync(folder, { recursive: true, force: true }))

  test('holds the command, the build, its source maps and licences, and the docs; no sources, tests, build state or compile cache', () => {
    for (const expected of [
      'bin/devutils.js',
      'dist/cli.js',
      'dist/server.js',
      'dist/worker.js',
      'dist/THIRD-PARTY-LICENSES.txt',
      'dist/jq/jq.js',
      'dist/jq/jq.wasm',
      'dist/jq/LICENSE',
      'dist/zxing_full.wasm',
      'dist/client.js',
      'dist/types/client/index.d.ts',
      'README.md',
      'LICENSE',
      'NOTICE',
      'package.json',
    ]) {
      assert.ok(files.includes(expected), `${expected} is packed`)
    }
    assert.ok(
      files.some((file) => /^dist\/.*\.js\.map$/.test(file)),
      'source maps are packed',
    )
    const unexpected = files.filter((file) => /^(src|test|bench|scripts)\/|\.tsbuildinfo$|\.test\.|^\.ci\/|\.compile-cache\//.test(file))
    assert.deepEqual(unexpected, [])
  })

  test('npx devutils base64 --input hi, and --version', async () => {
    assert.equal((await npx(folder, ['base64', '--input', 'hi'])).stdout, 'aGk=\n')
    assert.equal((await npx(folder, ['--version'])).stdout, `${version}\n`)
  })

  test('npx devutils serve answers /health with the version and operations (jq among them), and stops on SIGTERM', async () => {
    const port = await freePort()
    // In a process group of its own, signalled as a terminal's Ctrl-C signals one: npx and the shell it
    // starts do not pass a signal on to the server.
    const server = await spawnUntil('npx', ['--no-install', 'devutils', 'serve', '--port', String(port)], /Server listening/, { cwd: folder, detached: true })
    try {
      const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { data: { status: string; version: string } }
      assert.deepEqual(health.data, { status: 'ok', version })
      const answer = await fetch(`http://127.0.0.1:${port}/api/v1/yaml-json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // Large enough for the worker pool: the packed worker thread runs too.
        body: JSON.stringify({ input: Array.from({ length: 200 }, (_, i) => `key${i}: ${i}`).join('\n') }),
      })
      assert.equal(answer.status, 200)
      assert.equal(((await answer.json()) as { data: { result: Record<string, number> } }).data.result.key199, 199)
      assert.equal((await fetch(`http://127.0.0.1:${port}/docs/`)).status, 200)
      // jq runs on the worker thread always, from the build's copy of jq-web's files.
      const jq = await fetch(`http://127.0.0.1:${port}/api/v1/jq`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filter: '.a + 1', input: '{"a": 41}' }),
      })
      assert.equal(jq.status, 200)
      assert.deepEqual(((await jq.json()) as { data: { result: unknown[] } }).data.result, [42])
    } finally {
      const outputClosed = once(server.child.stdout!, 'close')
      process.kill(-server.child.pid!, 'SIGTERM')
      // npx may exit before the server it started has written its last lines: wait for every writer.
      await Promise.all([server.exited, outputClosed])
    }
    assert.match(server.output(), /"msg":"shut down"/)
  })

  test('the typed client: a strict consumer type-checks against the installed package, and calls a live server', async () => {
    const consumer = [
      "import { createClient, DevutilsClientError } from 'devutils/client'",
      // No @types/node here: the client needs nothing of Node's, and this line is all the consumer uses.
      'declare const process: { env: Record<string, string | undefined>; stdout: { write(text: string): void } }',
      'const client = createClient({ baseUrl: process.env.DEVUTILS_URL ?? "" })',
      "const encoded: { result: string; action: 'encode' | 'decode' } = await client.base64({ input: 'hi' })",
      "// @ts-expect-error: base64 has no field 'inptu'",
      "await client.base64({ inptu: 'hi' }).catch(() => undefined)",
      "const refused = await client.base64({ input: 'a*', action: 'decode' }).catch((error: unknown) => error)",
      'if (!(refused instanceof DevutilsClientError)) throw new Error("not refused")',
      'const summary: [number, string, string, unknown] = [refused.status, refused.code, refused.message, refused.details]',
      'process.stdout.write(JSON.stringify({ encoded, summary }))',
    ].join('\n')
    writeFileSync(join(folder, 'consumer.mts'), consumer)
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'], types: [] },
        files: ['consumer.mts'],
      }),
    )
    // TypeScript from this project: the consumer's folder has only the package and its dependencies.
    await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', folder], { cwd: folder }).catch((error) =>
      assert.fail(`${error.stdout}${error.stderr}`),
    )
    const port = await freePort()
    const server = await spawnUntil('npx', ['--no-install', 'devutils', 'serve', '--port', String(port)], /Server listening/, { cwd: folder, detached: true })
    try {
      // Node runs the consumer once its types are gone: the same file, as plain JavaScript.
      const javascript = consumer
        .replace(/^declare .*$/m, '')
        .replace(/: \{ result: string; action: 'encode' \| 'decode' \}|: unknown|: \[number, string, string, unknown\]/g, '')
      writeFileSync(join(folder, 'consumer.mjs'), javascript)
      const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: folder, env: { ...process.env, DEVUTILS_URL: `http://127.0.0.1:${port}` } })
      const { encoded, summary } = JSON.parse(stdout)
      assert.deepEqual(encoded, { result: 'aGk=', action: 'encode' })
      assert.equal(summary[0], 422)
      assert.equal(summary[1], 'INVALID_INPUT')
    } finally {
      process.kill(-server.child.pid!, 'SIGTERM')
      await server.exited
    }
  })

  test('npx devutils mcp answers initialize over standard input and output', async () => {
    const child = spawn('npx', ['--no-install', 'devutils', 'mcp'], { cwd: folder, stdio: ['pipe', 'pipe', 'pipe'] })
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'package-test', version: '1' } },
    }
    child.stdin.write(`${JSON.stringify(initialize)}\n`)
    let stdout = ''
    for await (const chunk of child.stdout) {
      stdout += chunk
      if (stdout.includes('\n')) break
    }
    const exited = once(child, 'exit')
    child.stdin.end()
    const answer = JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as { id: number; result: { serverInfo: { name: string; version: string } } }
    assert.equal(answer.id, 1)
    assert.deepEqual(answer.result.serverInfo, { name: 'devutils', version })
    assert.deepEqual(await exited, [0, null])
  })
})
