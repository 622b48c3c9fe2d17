import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileFunction } from 'node:vm'

/** The jq that jq-web builds to WebAssembly. */
export const JQ_VERSION = '1.7.1'

/**
 * The edits made to jq-web's `jq.js`, each of a text that must be found exactly once: the build
 * (scripts/build.ts) fails if one is not, rather than ship a copy that lacks it.
 */
const JQ_JS_EDITS: ReadonlyArray<{ why: string; find: string; replace: string }> = [
  {
    why: 'stdout goes to a bounded collector, not to an array of one number per byte that grows until the process aborts (and a NUL byte is a byte)',
    find: '        function output(c) {\n          if (c) outBuffer.push(c)\n        },',
    replace: "        Object.assign(function output(c) { Module['stdoutBytes'](new Uint8Array([c])) }, { bytes: (bytes) => Module['stdoutBytes'](bytes) }),",
  },
  {
    why: 'stderr likewise (debug and stderr can write without end)',
    find: '        function error(c) {\n          if (c) errBuffer.push(c)\n        }',
    replace: "        Object.assign(function error(c) { Module['stderrBytes'](new Uint8Array([c])) }, { bytes: (bytes) => Module['stderrBytes'](bytes) })",
  },
  {
    why: 'a device write hands the collector its bytes at once rather than one call per byte, and a collector that stops jq (past the output limits) ends the call rather than becoming a write error jq carries on after',
    find: '          write(stream, buffer, offset, length, pos) {\n            for (var i = 0; i < length; i++) {\n              try {\n                output(buffer[offset+i]);',
    replace:
      '          write(stream, buffer, offset, length, pos) {\n            if (output.bytes) {\n              output.bytes(new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length));\n              return length;\n            }\n            for (var i = 0; i < length; i++) {\n              try {\n                output(buffer[offset+i]);',
  },
  {
    why: 'the program and the string variables are files, not arguments: arguments are copied onto a stack of a few dozen KiB, which a long value overflows, and end at a NUL',
    find: '  FS.writeFile("inputString", jsonstring);\n',
    replace: '  FS.writeFile("inputString", jsonstring);\n  for (const [name, text] of Object.entries(Module[\'files\'] || {})) FS.writeFile(name, text);\n',
  },
  {
    why: 'the arguments are given whole, so that the program can come from its file',
    find: 'exitCode = Module.callMain(flags.concat(filter, "inputString"));',
    replace: 'exitCode = Module.callMain(Module[\'argv\'] || flags.concat(filter, "inputString"));',
  },
  {
    why: "what jq writes to stderr on success (debug, stderr) is the caller's, never the service's log",
    find: "console.warn('%cstderr%c: %c%s', 'background:red;color:black', '', 'color:red', stderr);",
    replace: '',
  },
  {
    why: 'jq 1.7.1 reads --argjson itself; rewriting it into --slurpfile and a prefix of the filter would shift what compile errors quote',
    find: 'if (flags[i] !== "--argjson") {',
    replace: 'if (true) {',
  },
  {
    why: 'export the factory, so that every call gets a fresh instance, rather than a ready-made singleton',
    find: 'jq = jq().then( module => {\n  return { json: module.json, raw: module.raw };\n} );',
    replace: '',
  },
]

/** jq-web's `jq.js` with the edits above; throws if any text to edit is not found exactly once. */
export function patchJqJs(source: string): string {
  let patched = source
  for (const { why, find, replace } of JQ_JS_EDITS) {
    const at = patched.indexOf(find)
    if (at === -1 || patched.indexOf(find, at + 1) !== -1) {
      throw new Error(`jq-web's jq.js has changed: ${JSON.stringify(find)} is not found exactly once, so the edit that ${why} cannot be made`)
    }
    patched = patched.slice(0, at) + replace + patched.slice(at + find.length)
  }
  return patched
}

/** Where the build puts the patched `jq.js` and `jq.wasm`, beside the bundle's chunks. */
export const JQ_DIST_FOLDER = 'jq'

interface JqFiles {
  source: string
  filename: string
  wasm: Uint8Array
}

/**
 * The build's patched copy when running from the bundle; from the sources (tsx), jq-web's own files,
 * patched here in memory with the same edits.
 */
function jqFiles(): JqFiles {
  if (extname(fileURLToPath(import.meta.url)) === '.js') {
    const folder = new URL(`./${JQ_DIST_FOLDER}/`, import.meta.url)
    return {
      source: readFileSync(new URL('jq.js', folder), 'utf8'),
      filename: fileURLToPath(new URL('jq.js', folder)),
      wasm: readFileSync(new URL('jq.wasm', folder)),
    }
  }
  const require = createRequire(import.meta.url)
  const filename = require.resolve('jq-web/jq.js')
  return { source: patchJqJs(readFileSync(filename, 'utf8')), filename, wasm: readFileSync(require.resolve('jq-web/jq.wasm')) }
}

/** The part of the WebAssembly API used here (the TypeScript libraries of this project do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer
  grow(delta: number): number
}
interface WasmInstance {
  readonly exports: Record<string, unknown>
}
type WasmModule = object
const WebAssembly = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => WasmModule
      Instance: new (module: WasmModule, imports: object) => WasmInstance
      Memory: { prototype: WasmMemory }
    }
  }
).WebAssembly

/** What the module factory of the patched `jq.js` takes and gives. */
interface JqModuleOptions {
  thisProgram: string
  files: Record<string, string>
  argv: string[]
  print(text: string): void
  printErr(text: string): void
  stdoutBytes(bytes: Uint8Array): void
  stderrBytes(bytes: Uint8Array): void
  instantiateWasm(imports: object, receive: (instance: WasmInstance, module: WasmModule) => void): WasmInstance['exports']
}
interface JqModule {
  raw(input: string, filter: string, flags: string[]): string | undefined
}
type JqFactory = (options: JqModuleOptions) => Promise<JqModule>

let loaded: { factory: JqFactory; wasm: WasmModule } | undefined

/** The factory and the compiled WebAssembly, made once per thread; each call instantiates them anew. */
function engine() {
  if (loaded) return loaded
  const { source, filename, wasm } = jqFiles()
  const module = { exports: {} as unknown }
  const load = compileFunction(source, ['module', 'exports', 'require', '__filename', '__dirname'], { filename })
  load(module, module.exports, createRequire(filename), filename, dirname(filename))
  if (typeof module.exports !== 'function') throw new Error("jq.js did not export its module factory: is it the build's patched copy?")
  loaded = { factory: module.exports as JqFactory, wasm: new WebAssembly.Module(wasm) }
  installMemoryCap()
  return loaded
}

/** The most WebAssembly memory one call may use. */
export const JQ_MEMORY_LIMIT_BYTES = 256 * 1024 * 1024

/** The memories of jq instances, and those of them refused growth past the cap. */
const capped = new WeakSet<WasmMemory>()
const refused = new WeakSet<WasmMemory>()
let capInstalled = false

/**
 * jq grows its memory through Emscripten's JavaScript (`Memory.prototype.grow`), which is where the
 * cap is applied: a refused growth is a failed allocation, which jq reports and stops on. Only jq's
 * memories are watched; any other WebAssembly in the thread grows as before.
 */
function installMemoryCap() {
  if (capInstalled) return
  capInstalled = true
  const grow = WebAssembly.Memory.prototype.grow
  WebAssembly.Memory.prototype.grow = function cappedGrow(this: WasmMemory, delta: number) {
    if (capped.has(this) && this.buffer.byteLength + delta * 65_536 > JQ_MEMORY_LIMIT_BYTES) {
      refused.add(this)
      throw new RangeError('jq may not use more WebAssembly memory')
    }
    return grow.call(this, delta)
  }
}

const decoder = new TextDecoder()

/** A growable byte buffer that takes at most `limit` bytes, counting line feeds; `onFull` hears of the first byte refused. */
class Bytes {
  bytes = new Uint8Array(4096)
  length = 0
  newlines = 0
  constructor(
    private readonly limit: number,
    private readonly onFull: () => void,
  ) {}
  append(chunk: Uint8Array) {
    const taken = chunk.length > this.limit - this.length ? chunk.subarray(0, this.limit - this.length) : chunk
    if (this.length + taken.length > this.bytes.length) {
      const larger = new Uint8Array(Math.min(this.limit, Math.max(this.bytes.length * 2, this.length + taken.length)))
      larger.set(this.view())
      this.bytes = larger
    }
    this.bytes.set(taken, this.length)
    this.length += taken.length
    for (let at = taken.indexOf(0x0a); at !== -1; at = taken.indexOf(0x0a, at + 1)) this.newlines++
    if (taken.length < chunk.length) this.onFull()
  }
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length)
  }
}

/** The last `limit` bytes or so of what was written: where jq's error message is, after any debug output. */
class Tail {
  private chunks: Uint8Array[] = []
  private length = 0
  constructor(private readonly limit: number) {}
  append(chunk: Uint8Array) {
    this.chunks.push(chunk.slice(-this.limit))
    this.length += Math.min(chunk.length, this.limit)
    while (this.length - this.chunks[0].length >= this.limit) this.length -= this.chunks.shift()!.length
  }
  text(): string {
    const bytes = new Uint8Array(this.length)
    let at = 0
    for (const chunk of this.chunks) {
      bytes.set(chunk, at)
      at += chunk.length
    }
    return decoder.decode(bytes)
  }
}

/** Thrown from inside jq's output to stop it: jq cannot catch a JavaScript exception, so it unwinds the whole call. */
class OutputStop extends Error {
  constructor(readonly reason: 'outputBytes' | 'outputs') {
    super('jq output stopped')
  }
}

export interface JqRunOptions {
  filter: string
  /** JSON text: jq reads it as a stream of values. */
  input: string
  /** Command-line options (`-c`, `-n`, `--argjson name text`…), before the program and the input. */
  flags: string[]
  /** String variables, as `--arg` defines them; handed over as files (`--rawfile`), whatever their length or content. */
  stringArgs?: Record<string, string>
  maxOutputBytes: number
  maxOutputs: number
  /** stderr is kept up to about this many bytes, the last ones. */
  maxErrorBytes?: number
}

export type JqRunResult =
  /** stdout, exit code and stderr, as jq left them. */
  | { kind: 'exit'; exitCode: number; stdout: Uint8Array; outputs: number; stderr: string }
  /** The output limits were reached; jq was stopped there. */
  | { kind: 'stopped'; reason: 'outputBytes' | 'outputs'; outputs: number }
  /** The instance was refused more memory and failed. */
  | { kind: 'memory'; outputs: number }
  /** The instance stopped abnormally (an out-of-bounds access, an abort). */
  | { kind: 'aborted'; message: string; outputs: number }

/**
 * Runs jq once, on a fresh WebAssembly instance: a value nested deep enough corrupts an instance
 * for good, and jq's known memory-safety bugs stay inside the instance thrown away with it.
 */
export async function runJq({
  filter,
  input,
  flags,
  stringArgs = {},
  maxOutputBytes,
  maxOutputs,
  maxErrorBytes = 64 * 1024,
}: JqRunOptions): Promise<JqRunResult> {
  const { factory, wasm } = engine()
  // The program and the strings are files of jq's in-memory file system (see the edits above).
  const files: Record<string, string> = { program: filter }
  const argv = [...flags]
  for (const [index, [name, value]] of Object.entries(stringArgs).entries()) {
    files[`arg-${index}`] = value
    argv.push('--rawfile', name, `arg-${index}`)
  }
  argv.push('--from-file', 'program', 'inputString')
  let stop: OutputStop | undefined
  const stopped = (reason: OutputStop['reason']) => {
    stop = new OutputStop(reason)
    return stop
  }
  const stdout = new Bytes(maxOutputBytes, () => {
    throw stopped('outputBytes')
  })
  const stderr = new Tail(maxErrorBytes)
  let memory: WasmMemory | undefined
  const module = await factory({
    // What `$ENV._` and the messages name, instead of the server's own script.
    thisProgram: 'jq',
    files,
    argv,
    print() {},
    printErr() {},
    stdoutBytes(bytes) {
      stdout.append(bytes)
      if (stdout.newlines > maxOutputs) throw stopped('outputs')
    },
    stderrBytes(bytes) {
      stderr.append(bytes)
    },
    instantiateWasm(imports, receive) {
      const instance = new WebAssembly.Instance(wasm, imports)
      memory = instance.exports.memory as WasmMemory
      capped.add(memory)
      receive(instance, wasm)
      return instance.exports
    },
  })
  // Emscripten sets process.exitCode when jq exits; the process's own must not change.
  const exitCodeBefore = process.exitCode
  try {
    module.raw(input, filter, flags)
    if (stop !== undefined) return { kind: 'stopped', reason: stop.reason, outputs: Math.min(stdout.newlines, maxOutputs) }
    return { kind: 'exit', exitCode: 0, stdout: stdout.view(), outputs: stdout.newlines, stderr: stderr.text() }
  } catch (error) {
    const outputs = Math.min(stdout.newlines, maxOutputs)
    if (stop !== undefined) return { kind: 'stopped', reason: stop.reason, outputs }
    if (memory !== undefined && refused.has(memory)) return { kind: 'memory', outputs }
    const exitCode = (error as { exitCode?: unknown }).exitCode
    if (typeof exitCode === 'number') {
      return { kind: 'exit', exitCode, stdout: stdout.view(), outputs: stdout.newlines, stderr: stderr.text() }
    }
    return { kind: 'aborted', message: error instanceof Error ? error.message : String(error), outputs }
  } finally {
    process.exitCode = exitCodeBefore
  }
}
