import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { promisify } from 'node:util'
import { COMPILE_CACHE_FOLDER } from '../../src/compile-cache.ts'
import { ROOT, startService } from '../processes.ts'

const run = promisify(execFile)

/** Node's account of its compile cache (NODE_DEBUG_NATIVE=COMPILE_CACHE): each module of the build it loaded, and whether the cache held it. */
function modulesRead(log: string): Map<string, boolean> {
  const modules = new Map<string, boolean>()
  for (const [, file, outcome] of log.matchAll(/\[compile cache\] cache for file:\/\/\S*\/dist\/(\S+\.js) was (\w+)/g))
    modules.set(file, outcome === 'accepted')
  for (const [, file] of log.matchAll(/\[compile cache\] reading cache from \S+ for ESM file:\/\/\S*\/dist\/(\S+\.js)\.\.\.\S*\.\.\. (?!success)/g))
    modules.set(file, false)
  return modules
}

const DEBUG = { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }

describe('the compile cache the build fills (run `npm run build` first)', () => {
  test('the command line compiles none of its modules: each comes from the cache', async () => {
    const { stdout, stderr } = await run(process.execPath, ['bin/devutils.js', '--version'], { cwd: ROOT, env: { ...process.env, ...DEBUG } })
    assert.match(stdout, /^\d+\.\d+\.\d+\n$/)
    const modules = modulesRead(stderr)
    assert.ok(modules.has('cli.js'), stderr.slice(0, 2000))
    assert.deepEqual(
      [...modules].filter(([, cached]) => !cached),
      [],
    )
  })

  test("the server's start compiles none of its modules: each comes from the cache", async () => {
    const server = await startService(DEBUG)
    try {
      const modules = modulesRead(server.output())
      assert.ok(modules.size > 10, server.output().slice(0, 2000))
      assert.deepEqual(
        [...modules].filter(([, cached]) => !cached),
        [],
      )
    } finally {
      server.child.kill('SIGTERM')
      await server.exited
    }
  })

  test('is never packed', () => {
    assert.equal(readFileSync(join(ROOT, 'dist', '.npmignore'), 'utf8'), `${COMPILE_CACHE_FOLDER}/\n`)
  })
})
