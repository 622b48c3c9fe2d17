/**
 * The service built with stand-in operations beside the real ones, for the start-up targets that
 * must hold with 100 operations registered. Only the bench builds it, into a folder of its own.
 *
 * Each stand-in is a module of its own with what an operation of the registry holds at load time:
 * its input and output schemas with descriptions, defaults and examples, a lookup table built when
 * the module loads, and a `run`. The build is the service's (scripts/node-bundle.ts), with the
 * registry extended as it would be by hand, a line per stand-in, and the operations' information
 * generated from the definitions, the stand-ins' included, as the build does.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, type Plugin } from 'esbuild'
import { serviceBundle } from '../scripts/node-bundle.ts'
import { operationInfosModule } from '../scripts/operation-infos.ts'
import { type AnyOperation, infoOf } from '../src/core/operation.ts'
import { operationInfos } from '../src/operations/infos.ts'
import { ROOT } from '../test/processes.ts'

/** What the service's own build writes besides its scripts, and the server or the command reads. */
const BUILT_ASSETS = ['swagger-ui', 'web', 'openapi.json']

const STAND_IN_NAMESPACE = 'stand-in'

const standInName = (index: number) => `stand-in-${String(index + 1).padStart(2, '0')}`

/** A stand-in operation's module: a ROT-style rotation by `index`, with the shape of a real encoder's. */
function standInModule(index: number): string {
  const name = standInName(index)
  const shift = (index % 25) + 1
  return `
import { Type } from 'typebox'
import { defineOperation, withDefault } from ${JSON.stringify(join(ROOT, 'src/core/operation.ts'))}

/** Each ASCII code to its code, a letter a-z rotated by shift. */
const rotation = (shift) => Uint16Array.from({ length: 128 }, (_, code) => (code >= 0x61 && code <= 0x7a ? 0x61 + ((code - 0x61 + shift) % 26) : code))
const TABLES = { encode: rotation(${shift}), decode: rotation(${26 - shift}) }

export const operation = defineOperation({
  name: ${JSON.stringify(name)},
  category: 'encoders',
  summary: 'Stand-in operation ${index + 1}: rotate lower-case letters by ${shift}',
  title: 'Stand-in ${index + 1}',
  aliases: ['stand-in', 'rotation ${shift}', 'bench'],
  description:
    'A stand-in the bench registers to measure start-up with a larger registry. It rotates the letters a-z by ${shift} and leaves every other ' +
    'character alone; decode rotates them back. Its schemas carry descriptions, defaults, bounds and examples as a real operation does.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text to rotate. May be empty.', maxLength: 1048576, examples: ['hello'] }),
      action: withDefault(Type.Enum(['encode', 'decode'], { description: 'encode rotates forward, decode back.' }), 'encode'),
      width: withDefault(Type.Integer({ minimum: 0, maximum: 1000, description: 'Pads the answer with spaces to this many characters.' }), 0),
      upperCase: withDefault(Type.Boolean({ description: 'Whether the answer is upper-cased.' }), false),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The rotated text.' }),
    action: Type.Enum(['encode', 'decode'], { description: 'The action performed.' }),
  }),
  examples: [
    { summary: 'Rotate a word', input: { input: 'hello' }, output: { result: ${JSON.stringify(rotate('hello', shift))}, action: 'encode' } },
    { summary: 'Rotate it back', input: { input: ${JSON.stringify(rotate('hello', shift))}, action: 'decode' }, output: { result: 'hello', action: 'decode' } },
  ],
  run: ({ input, action, width, upperCase }) => {
    const table = TABLES[action]
    const result = Array.from(input, (character) => (character.charCodeAt(0) < 128 ? String.fromCharCode(table[character.charCodeAt(0)]) : character)).join('')
    return { result: (upperCase ? result.toUpperCase() : result).padEnd(width), action }
  },
})
`
}

function rotate(text: string, shift: number): string {
  return text.replace(/[a-z]/g, (letter) => String.fromCharCode(0x61 + ((letter.charCodeAt(0) - 0x61 + shift) % 26)))
}

/** `text` with `extra` inserted after `anchor`, which must be in it. */
function insertedAfter(text: string, anchor: string, extra: string, file: string): string {
  const at = text.indexOf(anchor)
  if (at < 0) throw new Error(`${file} no longer holds ${JSON.stringify(anchor)}: update bench/stand-ins.ts`)
  return `${text.slice(0, at + anchor.length)}${extra}${text.slice(at + anchor.length)}`
}

/** Registers `count` stand-ins in the registry, as an author adding them would: a line each. */
function standInsPlugin(count: number): Plugin {
  const indices = Array.from({ length: count }, (_, index) => index)
  const registryFolder = join(ROOT, 'src/operations')
  return {
    name: 'stand-ins',
    setup(build) {
      build.onResolve({ filter: /^stand-in:/ }, (args) => ({ path: args.path.slice('stand-in:'.length), namespace: STAND_IN_NAMESPACE }))
      build.onLoad({ filter: /.*/, namespace: STAND_IN_NAMESPACE }, (args) => ({
        contents: standInModule(Number(args.path)),
        loader: 'ts',
        resolveDir: registryFolder,
      }))
      build.onLoad({ filter: /[\\/]src[\\/]operations[\\/]registry\.ts$/ }, (args) => {
        const entries = indices.map((index) => `'${standInName(index)}': () => import('stand-in:${index}').then((module) => module.operation),`)
        const text = insertedAfter(readFileSync(args.path, 'utf8'), 'export const operationLoaders = {', entries.join(''), 'registry.ts')
        return { contents: text, loader: 'ts' }
      })
    },
  }
}

/**
 * The stand-ins' definitions, loaded from their modules written into `folder` (whose node_modules
 * resolves their imports), for the information the build generates from every definition.
 */
async function standInOperations(folder: string, count: number): Promise<AnyOperation[]> {
  const modules = join(folder, 'stand-ins')
  mkdirSync(modules, { recursive: true })
  const loaded: AnyOperation[] = []
  for (let index = 0; index < count; index++) {
    const file = join(modules, `${standInName(index)}.ts`)
    writeFileSync(file, standInModule(index))
    loaded.push(((await import(file)) as { operation: AnyOperation }).operation)
  }
  return loaded
}

/**
 * The service with `count` stand-ins registered, built into `folder` as the repository holds it
 * (`bin/devutils.js`, `dist/`), with the assets of the service's own build (`npm run build` first)
 * and its node_modules. Answers the folder, for the start-up measurements' `root`.
 */
export async function buildWithStandIns(folder: string, count: number): Promise<string> {
  rmSync(folder, { recursive: true, force: true })
  const outdir = join(folder, 'dist')
  mkdirSync(join(folder, 'bin'), { recursive: true })
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
  cpSync(join(ROOT, 'package.json'), join(folder, 'package.json'))
  symlinkSync(join(ROOT, 'node_modules'), join(folder, 'node_modules'))
  const infos = [...(await standInOperations(folder, count)).map(infoOf), ...operationInfos]
  const service = serviceBundle({ root: ROOT, outdir, version })
  await build({ ...service, metafile: false, plugins: [...service.plugins, standInsPlugin(count), operationInfosModule(infos)] })
  for (const asset of BUILT_ASSETS) cpSync(join(ROOT, 'dist', asset), join(outdir, asset), { recursive: true })
  cpSync(join(ROOT, 'bin/devutils.js'), join(folder, 'bin/devutils.js'))
  return folder
}
