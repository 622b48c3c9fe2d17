// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is Compose's interpolation syntax, written in plain strings on purpose
import { setOwn, type WarningList } from '../../lib/json/value.ts'
import { DURATION, type Json, NAMED_VOLUME, secondsToDuration } from './compose-values.ts'
import type { SimpleEntry } from './flag-table.ts'
import { type Flag, flagError } from './read-flags.ts'

/** Network modes that are not networks of their own (`--network host`), as Compose's network_mode takes them. */
export const NETWORK_MODES = new Set(['host', 'none', 'bridge', 'default'])
const RESTART = /^(?:no|always|unless-stopped|on-failure(?::\d+)?)$/
const INTEGER = /^-?\d+$/
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/
export const HAS_VARIABLE = /\$\{/
/** Docker's rule for container names, which Compose's container_name shares. */
const CONTAINER_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/

/** `KEY=VALUE` items: the key, and the value (undefined without `=`). */
function keyValue(text: string): [string, string | undefined] {
  const equals = text.indexOf('=')
  return equals === -1 ? [text, undefined] : [text.slice(0, equals), text.slice(equals + 1)]
}

function typed(shape: 'int' | 'number', value: string, flag: Flag): number | string {
  if (HAS_VARIABLE.test(value)) return value
  if (!(shape === 'int' ? INTEGER : NUMBER).test(value)) throw flagError(`The value of {flag} must be ${shape === 'int' ? 'an integer' : 'a number'}`, flag)
  return Number(value)
}

function duration(value: string, flag: Flag): string {
  if (value === '0') return '0s'
  if (HAS_VARIABLE.test(value) || DURATION.test(value)) return value
  throw flagError('The value of {flag} must be a duration such as 30s, 1m30s or 500ms (units us, ms, s, m, h)', flag)
}

/** `name=value,name=value` with double-quoted fields as Docker's CSV-based options take them (`"device=0,1"`). */
function csvFields(text: string): string[] {
  const fields: string[] = []
  let field = ''
  let quoted = false
  for (const character of text) {
    if (character === '"') quoted = !quoted
    else if (character === ',' && !quoted) {
      fields.push(field)
      field = ''
    } else field += character
  }
  fields.push(field)
  return fields
}

export interface RunState {
  service: Json
  volumes: Json
  networks: Map<string, Json>
  /** --network-alias, --ip, --ip6: they apply to the first user-defined network, wherever it is given. */
  networkOptions: Array<{ flag: Flag; key: 'aliases' | 'ipv4_address' | 'ipv6_address' | 'link_local_ips'; value: string }>
  healthcheck: Json
  logging: Json
  ignored: Array<{ flag: string; reason: string }>
  warnings: WarningList
  /** The items of each list key so far: Compose requires most lists to hold each item once. */
  listed: Map<string, Set<string>>
}

/** Adds an item to a list key of the service, once: a repeated flag gives the same container either way. */
function addToList(state: RunState, key: string, item: unknown, flag: Flag): void {
  const identity = JSON.stringify(item)
  const listed = state.listed.get(key) ?? new Set<string>()
  state.listed.set(key, listed)
  if (listed.has(identity)) {
    state.warnings.add(`${flag.name} at position ${flag.start} repeats an earlier value; Compose lists it once`)
    return
  }
  listed.add(identity)
  listOf(state.service, key).push(item)
}

export const listOf = (target: Json, key: string): unknown[] => {
  if (!Array.isArray(target[key])) setOwn(target, key, [])
  return target[key] as unknown[]
}
const mapOf = (target: Json, key: string): Json => {
  const current = target[key]
  if (current === null || typeof current !== 'object' || Array.isArray(current)) setOwn(target, key, {})
  return target[key] as Json
}

export function applySimple(state: RunState, entry: SimpleEntry, flag: Flag): void {
  const { service } = state
  const value = flag.value ?? ''
  switch (entry.shape) {
    case 'bool':
      if (flag.off) delete service[entry.key]
      else service[entry.key] = true
      return
    case 'string':
      if (entry.key === 'restart' && !HAS_VARIABLE.test(value) && !RESTART.test(value)) {
        throw flagError('The value of {flag} must be no, always, unless-stopped or on-failure[:max-retries]', flag)
      }
      if (entry.key === 'container_name' && !HAS_VARIABLE.test(value) && !CONTAINER_NAME.test(value)) {
        throw flagError(
          'The value of {flag} must be a container name Docker accepts: two or more letters, digits, _, . or -, starting with a letter or digit',
          flag,
        )
      }
      if (entry.key === 'pull_policy' && !HAS_VARIABLE.test(value) && !/^(?:always|missing|never)$/.test(value)) {
        throw flagError('The value of {flag} must be always, missing or never', flag)
      }
      service[entry.key] = value
      return
    case 'int':
    case 'number':
      service[entry.key] = typed(entry.shape, value, flag)
      return
    case 'list':
      addToList(state, entry.key, value, flag)
      return
    case 'map':
    case 'env': {
      const [key, item] = keyValue(value)
      if (key === '') throw flagError('A value of {flag} has no name before its =', flag)
      setOwn(mapOf(service, entry.key), key, item ?? (entry.shape === 'env' ? null : ''))
      return
    }
  }
}

function applyVolume(state: RunState, flag: Flag): void {
  const value = flag.value ?? ''
  if (value === '') throw flagError('The value of {flag} is empty', flag)
  const colon = value.indexOf(':')
  if (colon > 0) {
    const source = value.slice(0, colon)
    if (NAMED_VOLUME.test(source)) setOwn(state.volumes, source, { name: source })
  }
  addToList(state, 'volumes', value, flag)
}

const MOUNT_TYPES = new Set(['bind', 'volume', 'tmpfs', 'npipe', 'cluster', 'image'])
const TRUE_FALSE: Record<string, boolean> = { true: true, '1': true, false: false, '0': false }

/** `--mount type=…,source=…,target=…` as Compose's long volume syntax. */
function applyMount(state: RunState, flag: Flag): void {
  const mount: Json = {}
  const section = (name: string) => mapOf(mount, name)
  const switchOf = (key: string, text: string | undefined) => {
    const setting = text === undefined ? true : Object.hasOwn(TRUE_FALSE, text.toLowerCase()) ? TRUE_FALSE[text.toLowerCase()] : undefined
    if (setting === undefined) throw flagError(`The ${key} option of {flag} takes true or false`, flag)
    return setting
  }
  for (const field of csvFields(flag.value ?? '')) {
    const [key, value] = keyValue(field)
    const text = value ?? ''
    switch (key.toLowerCase()) {
      case 'type':
        if (!MOUNT_TYPES.has(text)) throw flagError('The type of {flag} must be bind, volume, tmpfs, npipe, cluster or image', flag)
        mount.type = text
        break
      case 'source':
      case 'src':
        mount.source = text
        break
      case 'target':
      case 'destination':
      case 'dst':
        mount.target = text
        break
      case 'readonly':
      case 'ro':
        mount.read_only = switchOf('readonly', value)
        break
      case 'bind-propagation':
        section('bind').propagation = text
        break
      case 'volume-nocopy':
        section('volume').nocopy = switchOf('volume-nocopy', value)
        break
      case 'volume-subpath':
        section('volume').subpath = text
        break
      case 'tmpfs-size':
        section('tmpfs').size = INTEGER.test(text) ? Number(text) : text
        break
      case 'tmpfs-mode':
        if (!/^[0-7]{1,4}$/.test(text)) throw flagError('The tmpfs-mode of {flag} must be an octal mode such as 1770', flag)
        section('tmpfs').mode = Number.parseInt(text, 8)
        break
      case 'consistency':
        mount.consistency = text
        break
      case '':
        break
      default:
        throw flagError(
          `The option ${key.slice(0, 40)} of {flag} has no Compose form; Compose's long volume syntax takes type, source, target, readonly, bind-propagation, volume-nocopy, volume-subpath, tmpfs-size, tmpfs-mode and consistency`,
          flag,
        )
    }
  }
  if (mount.target === undefined) throw flagError('The value of {flag} names no target', flag)
  if (mount.type === undefined) mount.type = 'volume'
  const ordered: Json = { type: mount.type, ...mount }
  if (ordered.type === 'volume' && typeof ordered.source === 'string' && NAMED_VOLUME.test(ordered.source)) {
    setOwn(state.volumes, ordered.source, { name: ordered.source })
  }
  addToList(state, 'volumes', ordered, flag)
}

function applyNetwork(state: RunState, flag: Flag): void {
  const value = flag.value ?? ''
  let name = value
  const options: Json = {}
  if (value.includes('=')) {
    name = ''
    for (const field of csvFields(value)) {
      const [key, item = ''] = keyValue(field)
      if (key === 'name') name = item
      else if (key === 'alias') (listOf(options, 'aliases') as string[]).push(item)
      else if (key === 'ip') options.ipv4_address = item
      else if (key === 'ip6') options.ipv6_address = item
      else if (key === 'link-local-ip') (listOf(options, 'link_local_ips') as string[]).push(item)
      else throw flagError(`The option ${key.slice(0, 40)} of {flag} has no Compose form here; name, alias, ip, ip6 and link-local-ip have one`, flag)
    }
  }
  if (name === '') throw flagError('The value of {flag} names no network', flag)
  const mode = NETWORK_MODES.has(name) || name.startsWith('container:')
  if (mode) {
    if (state.networks.size > 0 || state.service.network_mode !== undefined) {
      throw flagError('{flag} cannot join a network mode such as host or none with another network', flag)
    }
    state.service.network_mode = name
    return
  }
  if (state.service.network_mode !== undefined) throw flagError('{flag} cannot join a network mode such as host or none with another network', flag)
  const joined = state.networks.get(name) ?? {}
  state.networks.set(name, { ...joined, ...options })
}

function applyUlimit(state: RunState, flag: Flag): void {
  const [name, limits] = keyValue(flag.value ?? '')
  const match = limits === undefined ? null : /^(-?\d+)(?::(-?\d+))?$/.exec(limits)
  if (name === '' || !match) throw flagError('The value of {flag} must be name=limit or name=soft:hard, with integer limits', flag)
  setOwn(mapOf(state.service, 'ulimits'), name, match[2] === undefined ? Number(match[1]) : { soft: Number(match[1]), hard: Number(match[2]) })
}

/** `--gpus all`, `--gpus 2`, `--gpus '"device=0,1"'`, `--gpus count=2,capabilities=compute`. */
function applyGpus(state: RunState, flag: Flag): void {
  const value = flag.value ?? ''
  if (value === 'all') {
    state.service.gpus = 'all'
    return
  }
  if (state.service.gpus === 'all') return
  const request: Json = {}
  if (INTEGER.test(value)) request.count = Number(value)
  else {
    for (const field of csvFields(value)) {
      const [key, item = ''] = keyValue(field)
      if (key === 'count') request.count = item === 'all' ? 'all' : typed('int', item, flag)
      else if (key === 'device') request.device_ids = item.split(',')
      else if (key === 'driver') request.driver = item
      else if (key === 'capabilities') request.capabilities = item.split(',')
      else throw flagError(`The option ${key.slice(0, 40)} of {flag} is not one of count, device, driver and capabilities`, flag)
    }
  }
  addToList(state, 'gpus', request, flag)
}

/** `--device-read-bps /dev/sda:1mb` and its kin: one device's entry under blkio_config. */
function applyBlkioDevice(state: RunState, flag: Flag): void {
  const value = flag.value ?? ''
  const colon = value.lastIndexOf(':')
  if (colon <= 0 || colon === value.length - 1) throw flagError('The value of {flag} must be device-path:value', flag)
  const [path, setting] = [value.slice(0, colon), value.slice(colon + 1)]
  const key = flag.name === '--blkio-weight-device' ? 'weight_device' : flag.name.slice(2).replaceAll('-', '_')
  const rate =
    flag.name === '--blkio-weight-device' || flag.name.endsWith('iops') ? typed('int', setting, flag) : INTEGER.test(setting) ? Number(setting) : setting
  listOf(mapOf(state.service, 'blkio_config'), key).push(flag.name === '--blkio-weight-device' ? { path, weight: rate } : { path, rate })
}

/** `--network-alias`, `--ip` and their kin wait until every flag is read: they apply to the first user-defined network. */
const NETWORK_OPTION_KEYS: Record<string, RunState['networkOptions'][number]['key']> = {
  '--network-alias': 'aliases',
  '--net-alias': 'aliases',
  '--ip': 'ipv4_address',
  '--ip6': 'ipv6_address',
  '--link-local-ip': 'link_local_ips',
}

function applyNetworkOption(state: RunState, flag: Flag): void {
  state.networkOptions.push({ flag, key: NETWORK_OPTION_KEYS[flag.name], value: flag.value ?? '' })
}

function applyEntrypoint(state: RunState, flag: Flag): void {
  const value = flag.value ?? ''
  state.service.entrypoint = value === '' ? [] : [value]
}

function applyStopTimeout(state: RunState, flag: Flag): void {
  const value = flag.value ?? ''
  if (!/^\d+$/.test(value)) throw flagError('The value of {flag} must be a whole number of seconds', flag)
  state.service.stop_grace_period = secondsToDuration(Number(value))
}

function applyBlkioWeight(state: RunState, flag: Flag): void {
  mapOf(state.service, 'blkio_config').weight = typed('int', flag.value ?? '', flag)
}

/** The `--health-*` flags and `--no-healthcheck`, into the healthcheck section. */
function applyHealthcheck(state: RunState, flag: Flag): void {
  const { healthcheck } = state
  const value = flag.value ?? ''
  switch (flag.name) {
    case '--health-cmd':
      healthcheck.test = value
      return
    case '--health-interval':
    case '--health-timeout':
    case '--health-start-period':
    case '--health-start-interval':
      healthcheck[flag.name.slice('--health-'.length).replace('-', '_')] = duration(value, flag)
      return
    case '--health-retries':
      healthcheck.retries = typed('int', value, flag)
      return
    case '--no-healthcheck':
      if (flag.off) delete healthcheck.disable
      else healthcheck.disable = true
      return
  }
}

/** `--log-driver` and `--log-opt name=value`, into the logging section. */
function applyLogging(state: RunState, flag: Flag): void {
  const value = flag.value ?? ''
  if (flag.name === '--log-driver') {
    state.logging.driver = value
    return
  }
  const [key, item] = keyValue(value)
  if (key === '' || item === undefined) throw flagError('The value of {flag} must be name=value', flag)
  setOwn(mapOf(state.logging, 'options'), key, item)
}

type ApplyFlag = (state: RunState, flag: Flag) => void
const appliedBy = (apply: ApplyFlag, ...names: string[]) => names.map((name) => [name, apply] as const)

/** The flags read here rather than through the table of simple ones, each with what it does. */
const SPECIAL_FLAGS = new Map<string, ApplyFlag>([
  ...appliedBy(applyVolume, '-v', '--volume'),
  ...appliedBy(applyMount, '--mount'),
  ...appliedBy(applyNetwork, '--network', '--net'),
  ...appliedBy(applyNetworkOption, ...Object.keys(NETWORK_OPTION_KEYS)),
  ...appliedBy(applyBlkioDevice, '--blkio-weight-device', '--device-read-bps', '--device-read-iops', '--device-write-bps', '--device-write-iops'),
  ...appliedBy(applyBlkioWeight, '--blkio-weight'),
  ...appliedBy(applyEntrypoint, '--entrypoint'),
  ...appliedBy(applyUlimit, '--ulimit'),
  ...appliedBy(applyStopTimeout, '--stop-timeout'),
  ...appliedBy(
    applyHealthcheck,
    '--health-cmd',
    '--health-interval',
    '--health-timeout',
    '--health-start-period',
    '--health-start-interval',
    '--health-retries',
    '--no-healthcheck',
  ),
  ...appliedBy(applyLogging, '--log-driver', '--log-opt'),
  ...appliedBy(applyGpus, '--gpus'),
])

export function applySpecial(state: RunState, flag: Flag): void {
  // The healthcheck and logging sections take their place in the service at their first flag.
  if (flag.name.startsWith('--health-') || flag.name === '--no-healthcheck') state.service.healthcheck = state.healthcheck
  if (flag.name.startsWith('--log-')) state.service.logging = state.logging
  SPECIAL_FLAGS.get(flag.name)?.(state, flag)
}
