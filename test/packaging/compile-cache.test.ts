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

/**
 * The module the entry imports once the cache is on, and nine in ten of all the start loaded, came
 * from the cache. Not every one: a process that ends writes back what it compiled since, and the
 * tests that run beside this one start the same build, so an entry may be in the middle of a rewrite.
 */
function assertFromTheCache(log: string, first: RegExp) {
  const modules = modulesRead(log)
  const entry = [...modules.keys()].find((file) => first.test(file))
  assert.ok(entry !== undefined && modules.get(entry), log.slice(0, 2000))
  const compiled = [...modules].filter(([, cached]) => !cached).map(([file]) => file)
  assert.ok(modules.size > 10 && compiled.length <= modules.size / 10, `${compiled.length} of ${modules.size} compiled: ${compiled.join(', ')}`)
}

const DEBUG = { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }

describe('the compile cache the build fills (run `npm run build` first)', () => {
  test("the command line's start compiles its modules no more: they come from the cache", async () => {
    const { stdout, stderr } = await run(process.execPath, ['bin/devutils.js', '--version'], { cwd: ROOT, env: { ...process.env, ...DEBUG } })
    assert.match(stdout, /^\d+\.\d+\.\d+\n$/)
    assertFromTheCache(stderr, /^cli\.js$/)
  })

  test("the server's start compiles its modules no more: they come from the cache", async () => {
    const server = await startService(DEBUG)
    try {
      assertFromTheCache(server.output(), /^server-\w+\.js$/)
    } finally {
      server.child.kill('SIGTERM')
      await server.exited
    }
  })

  test('is never packed', () => {
    assert.equal(readFileSync(join(ROOT, 'dist', '.npmignore'), 'utf8'), `${COMPILE_CACHE_FOLDER}/\n`)
  })
})
