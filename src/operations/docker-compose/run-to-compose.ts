// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is Compose's interpolation syntax, written in plain strings on purpose
import { Document, isScalar, Scalar, visit } from 'yaml'
import { invalidInput } from '../../core/errors.ts'
import { WarningList } from '../../lib/json/value.ts'
import { applySimple, applySpecial, HAS_VARIABLE, listOf, type RunState } from './apply-flags.ts'
import type { Json } from './compose-values.ts'
import { IGNORED, SIMPLE_BY_FLAG } from './flag-table.ts'
import { flagError, readFlags } from './read-flags.ts'
import { shellWords } from './shell.ts'

/** The service name from an image reference: its last path segment, without tag or digest. */
function nameFromImage(image: string): string {
  const path = image.split('@')[0]
  const last = path.slice(path.lastIndexOf('/') + 1)
  const colon = last.indexOf(':')
  return sanitizedName(colon === -1 ? last : last.slice(0, colon))
}

function sanitizedName(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
  return name === '' ? 'app' : name
}

/** Compose keys that hold port numbers: always written quoted, since YAML 1.1 reads 22:22 as a base-60 number. */
const QUOTED_LISTS = new Set(['ports', 'expose'])

function composeYaml(document: Json, indent: number): string {
  const doc = new Document(document, { version: '1.2', schema: 'core', compat: 'yaml-1.1', aliasDuplicateObjects: false })
  visit(doc, {
    Seq(_key, node, path) {
      const parent = path.at(-1)
      const key = parent && 'key' in (parent as object) ? (parent as { key: unknown }).key : undefined
      if (!isScalar(key) || !QUOTED_LISTS.has(String(key.value))) return
      for (const item of node.items) if (isScalar(item) && typeof item.value === 'string') item.type = Scalar.QUOTE_DOUBLE
    },
  })
  return doc.toString({ indent, lineWidth: 0 })
}

interface RunOptions {
  projectName?: string
  serviceName?: string
  indent: number
}

/** The words of a `docker run` command ([sudo] docker [container] run), its flags, and the index of its image. */
function readRunCommand(input: string) {
  const words = shellWords(input, 'compose')
  let at = 0
  if (words[at]?.text === 'sudo') at++
  if (words[at]?.text !== 'docker') {
    const position = words[at]?.start ?? 0
    throw invalidInput(`The input must be one docker run command, starting with docker run or docker container run (at position ${position})`, { position })
  }
  at++
  if (words[at]?.text === 'container') at++
  if (words[at]?.text !== 'run') {
    const position = words[at]?.start ?? input.length
    throw invalidInput(`Only docker run converts to a Compose service; this command is not docker run (at position ${position})`, { position })
  }
  at++
  const { flags, image } = readFlags(words, at)
  if (image >= words.length) throw invalidInput(`The docker run command names no image (at position ${input.length})`, { position: input.length })
  return { words, flags, image }
}

export function runToCompose(input: string, options: RunOptions) {
  const { words, flags, image } = readRunCommand(input)
  const state: RunState = {
    service: {},
    volumes: {},
    networks: new Map(),
    networkOptions: [],
    healthcheck: {},
    logging: {},
    ignored: [],
    warnings: new WarningList(),
    listed: new Map(),
  }
  const { service } = state
  service.image = words[image].text
  const seen = new Set<string>()
  for (const flag of flags) {
    const ignored = IGNORED[flag.name]
    if (ignored) {
      if (!seen.has(flag.name)) state.ignored.push({ flag: flag.name, reason: ignored.reason })
      seen.add(flag.name)
      continue
    }
    const simple = SIMPLE_BY_FLAG.get(flag.name)
    if (simple) applySimple(state, simple, flag)
    else applySpecial(state, flag)
  }
  if (Object.keys(state.healthcheck).length === 0) delete service.healthcheck
  const [firstNetwork] = state.networks.keys()
  for (const { flag, key, value } of state.networkOptions) {
    if (firstNetwork === undefined) throw flagError('{flag} needs a user-defined network (--network name)', flag)
    const options = state.networks.get(firstNetwork)!
    if (key === 'aliases' || key === 'link_local_ips') (listOf(options, key) as string[]).push(value)
    else options[key] = value
  }
  if (state.networks.size > 0) {
    const plain = [...state.networks.values()].every((options) => Object.keys(options).length === 0)
    service.networks = plain ? [...state.networks.keys()] : Object.fromEntries(state.networks)
  }
  if (image + 1 < words.length) service.command = words.slice(image + 1).map((word) => word.text)
  const ordered: Json = { image: service.image }
  if (service.container_name !== undefined) ordered.container_name = service.container_name
  Object.assign(ordered, service)
  const named = typeof service.container_name === 'string' && !HAS_VARIABLE.test(service.container_name)
  const serviceName = options.serviceName ?? (named ? sanitizedName(service.container_name as string) : nameFromImage(words[image].text))
  const document: Json = {}
  if (options.projectName !== undefined) document.name = options.projectName
  document.services = { [serviceName]: ordered }
  if (Object.keys(state.volumes).length > 0) document.volumes = state.volumes
  if (state.networks.size > 0) document.networks = Object.fromEntries([...state.networks.keys()].map((network) => [network, { external: true }]))
  const interpolated = [...JSON.stringify(ordered).matchAll(/(?<!\$)(?:\$\$)*\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1])
  const distinct = [...new Set(interpolated)]
  if (distinct.length > 0) {
    state.warnings.add(
      `Compose interpolates ${distinct.map((variable) => `\${${variable}}`).join(', ')} when it reads the file (from the environment or an .env file), as your shell would have expanded ${distinct.length === 1 ? 'it' : 'them'}`,
    )
  }
  return {
    result: composeYaml(document, options.indent),
    action: 'runToCompose' as const,
    service: ordered,
    ignored: state.ignored,
    warnings: state.warnings.list(),
  }
}
