// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is Compose's interpolation syntax, written in plain strings on purpose
import { Type } from 'typebox'
import { Document, isScalar, Scalar, visit } from 'yaml'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { setOwn, WarningList } from '../../lib/json/value.ts'
import { YAML_OFFLOAD_THRESHOLD, yamlToJsonByLibrary } from '../../lib/yaml/yaml-to-json.ts'
import { composeValueToShell, shellQuote, shellWords, type Word } from './shell.ts'

const ACTIONS = ['runToCompose', 'composeToRun'] as const
const MAX_INPUT = 65_536
/** A `docker run` command is split in one linear pass; past this size it still runs on a worker thread. */
const RUN_OFFLOAD_THRESHOLD = 16_384
const NAME_PATTERN = '^[a-z0-9][a-z0-9_-]*$'
const COMMAND_LIMIT = 2 * 1024 * 1024

type Json = Record<string, unknown>
type Shape = 'string' | 'int' | 'number' | 'bool' | 'list' | 'map' | 'env'

/**
 * The `docker run` flags that map one to one onto a Compose service key (Docker's `docker container
 * run` reference; the Compose Specification, services). The first spelling is the one composeToRun
 * writes. `env` is a map whose `KEY` alone means "take it from the environment" (null in Compose).
 */
const SIMPLE: ReadonlyArray<{ flags: readonly string[]; key: string; shape: Shape }> = [
  { flags: ['--name'], key: 'container_name', shape: 'string' },
  { flags: ['-p', '--publish'], key: 'ports', shape: 'list' },
  { flags: ['--expose'], key: 'expose', shape: 'list' },
  { flags: ['-e', '--env'], key: 'environment', shape: 'env' },
  { flags: ['--env-file'], key: 'env_file', shape: 'list' },
  { flags: ['--tmpfs'], key: 'tmpfs', shape: 'list' },
  { flags: ['--volumes-from'], key: 'volumes_from', shape: 'list' },
  { flags: ['--restart'], key: 'restart', shape: 'string' },
  { flags: ['-i', '--interactive'], key: 'stdin_open', shape: 'bool' },
  { flags: ['-t', '--tty'], key: 'tty', shape: 'bool' },
  { flags: ['-w', '--workdir'], key: 'working_dir', shape: 'string' },
  { flags: ['-u', '--user'], key: 'user', shape: 'string' },
  { flags: ['-h', '--hostname'], key: 'hostname', shape: 'string' },
  { flags: ['--domainname'], key: 'domainname', shape: 'string' },
  { flags: ['--add-host'], key: 'extra_hosts', shape: 'list' },
  { flags: ['--dns'], key: 'dns', shape: 'list' },
  { flags: ['--dns-search'], key: 'dns_search', shape: 'list' },
  { flags: ['--dns-option', '--dns-opt'], key: 'dns_opt', shape: 'list' },
  { flags: ['--mac-address'], key: 'mac_address', shape: 'string' },
  { flags: ['--cap-add'], key: 'cap_add', shape: 'list' },
  { flags: ['--cap-drop'], key: 'cap_drop', shape: 'list' },
  { flags: ['--privileged'], key: 'privileged', shape: 'bool' },
  { flags: ['--security-opt'], key: 'security_opt', shape: 'list' },
  { flags: ['--device'], key: 'devices', shape: 'list' },
  { flags: ['--device-cgroup-rule'], key: 'device_cgroup_rules', shape: 'list' },
  { flags: ['--sysctl'], key: 'sysctls', shape: 'map' },
  { flags: ['-m', '--memory'], key: 'mem_limit', shape: 'string' },
  { flags: ['--memory-reservation'], key: 'mem_reservation', shape: 'string' },
  { flags: ['--memory-swap'], key: 'memswap_limit', shape: 'string' },
  { flags: ['--memory-swappiness'], key: 'mem_swappiness', shape: 'int' },
  { flags: ['--cpus'], key: 'cpus', shape: 'number' },
  { flags: ['--cpu-shares', '-c'], key: 'cpu_shares', shape: 'int' },
  { flags: ['--cpuset-cpus'], key: 'cpuset', shape: 'string' },
  { flags: ['--cpu-count'], key: 'cpu_count', shape: 'int' },
  { flags: ['--cpu-percent'], key: 'cpu_percent', shape: 'int' },
  { flags: ['--cpu-period'], key: 'cpu_period', shape: 'int' },
  { flags: ['--cpu-quota'], key: 'cpu_quota', shape: 'int' },
  { flags: ['--cpu-rt-period'], key: 'cpu_rt_period', shape: 'int' },
  { flags: ['--cpu-rt-runtime'], key: 'cpu_rt_runtime', shape: 'int' },
  { flags: ['--pids-limit'], key: 'pids_limit', shape: 'int' },
  { flags: ['--shm-size'], key: 'shm_size', shape: 'string' },
  { flags: ['--oom-kill-disable'], key: 'oom_kill_disable', shape: 'bool' },
  { flags: ['--oom-score-adj'], key: 'oom_score_adj', shape: 'int' },
  { flags: ['-l', '--label'], key: 'labels', shape: 'map' },
  { flags: ['--label-file'], key: 'label_file', shape: 'list' },
  { flags: ['--annotation'], key: 'annotations', shape: 'map' },
  { flags: ['--stop-signal'], key: 'stop_signal', shape: 'string' },
  { flags: ['--init'], key: 'init', shape: 'bool' },
  { flags: ['--read-only'], key: 'read_only', shape: 'bool' },
  { flags: ['--platform'], key: 'platform', shape: 'string' },
  { flags: ['--pull'], key: 'pull_policy', shape: 'string' },
  { flags: ['--pid'], key: 'pid', shape: 'string' },
  { flags: ['--ipc'], key: 'ipc', shape: 'string' },
  { flags: ['--uts'], key: 'uts', shape: 'string' },
  { flags: ['--userns'], key: 'userns_mode', shape: 'string' },
  { flags: ['--cgroupns'], key: 'cgroup', shape: 'string' },
  { flags: ['--cgroup-parent'], key: 'cgroup_parent', shape: 'string' },
  { flags: ['--group-add'], key: 'group_add', shape: 'list' },
  { flags: ['--runtime'], key: 'runtime', shape: 'string' },
  { flags: ['--isolation'], key: 'isolation', shape: 'string' },
  { flags: ['--storage-opt'], key: 'storage_opt', shape: 'map' },
  { flags: ['--link'], key: 'links', shape: 'list' },
  { flags: ['--use-api-socket'], key: 'use_api_socket', shape: 'bool' },
]

/** Flags this converter reads itself, each into a Compose key or section of its own. */
const SPECIAL_VALUED = [
  '-v',
  '--volume',
  '--mount',
  '--network',
  '--net',
  '--network-alias',
  '--net-alias',
  '--ip',
  '--ip6',
  '--entrypoint',
  '--ulimit',
  '--stop-timeout',
  '--health-cmd',
  '--health-interval',
  '--health-timeout',
  '--health-retries',
  '--health-start-period',
  '--health-start-interval',
  '--log-driver',
  '--log-opt',
  '--blkio-weight',
  '--blkio-weight-device',
  '--device-read-bps',
  '--device-read-iops',
  '--device-write-bps',
  '--device-write-iops',
  '--link-local-ip',
  '--gpus',
] as const
const SPECIAL_BOOLEAN = ['--no-healthcheck'] as const

/** Accepted `docker run` flags that change how the CLI runs the container, not the container: no Compose form. */
const IGNORED: Record<string, { valued: boolean; reason: string }> = {
  '-d': { valued: false, reason: 'docker compose up -d detaches; a service is not started in the foreground by its definition' },
  '--detach': { valued: false, reason: 'docker compose up -d detaches; a service is not started in the foreground by its definition' },
  '--rm': { valued: false, reason: 'Compose keeps a service’s container until docker compose down removes it' },
  '-a': { valued: true, reason: 'docker compose attaches to every stream of the services it runs in the foreground' },
  '--attach': { valued: true, reason: 'docker compose attaches to every stream of the services it runs in the foreground' },
  '--sig-proxy': { valued: false, reason: 'docker compose forwards signals itself' },
  '--cidfile': { valued: true, reason: 'Compose writes no container ID file' },
  '--detach-keys': { valued: true, reason: 'a setting of the attached client (docker attach), not of the service' },
  '-q': { valued: false, reason: 'docker compose pull --quiet silences pulls' },
  '--quiet': { valued: false, reason: 'docker compose pull --quiet silences pulls' },
  '--disable-content-trust': { valued: false, reason: 'content trust is a setting of the Docker client (DOCKER_CONTENT_TRUST)' },
  '-P': { valued: false, reason: 'Compose has no "publish every exposed port"; list the ports under ports' },
  '--publish-all': { valued: false, reason: 'Compose has no "publish every exposed port"; list the ports under ports' },
}

/** `docker run` flags that Compose has no key for: refused by name, since dropping them would change the container. */
const WITHOUT_COMPOSE_FORM = new Set(['--cpuset-mems', '--volume-driver', '--io-maxbandwidth', '--io-maxiops', '--kernel-memory', '--help'])

const SIMPLE_BY_FLAG = new Map(SIMPLE.flatMap((entry) => entry.flags.map((flag) => [flag, entry] as const)))
const SIMPLE_BY_KEY = new Map(SIMPLE.map((entry) => [entry.key, entry]))
const VALUED = new Set<string>([
  ...SIMPLE.filter((entry) => entry.shape !== 'bool').flatMap((entry) => entry.flags),
  ...SPECIAL_VALUED,
  ...Object.entries(IGNORED)
    .filter(([, flag]) => flag.valued)
    .map(([name]) => name),
])
const KNOWN = new Set<string>([...SIMPLE.flatMap((entry) => entry.flags), ...SPECIAL_VALUED, ...SPECIAL_BOOLEAN, ...Object.keys(IGNORED)])

/** Network modes that are not networks of their own (`--network host`), as Compose's network_mode takes them. */
const NETWORK_MODES = new Set(['host', 'none', 'bridge', 'default'])
const RESTART = /^(?:no|always|unless-stopped|on-failure(?::\d+)?)$/
/** Compose durations (the Compose Specification, "Specifying durations"): units us, ms, s, m, h. */
const DURATION = /^(?:\d+(?:\.\d+)?(?:us|ms|s|m|h))+$/
const INTEGER = /^-?\d+$/
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/
const NAMED_VOLUME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/
const HAS_VARIABLE = /\$\{/
/** Docker's rule for container names, which Compose's container_name shares. */
const CONTAINER_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/

interface Flag {
  name: string
  value: string | undefined
  /** `--flag=false` for a boolean. */
  off: boolean
  start: number
}

const flagError = (message: string, flag: Flag) =>
  invalidInput(`${message.replace('{flag}', flag.name)} (at position ${flag.start})`, { position: flag.start, flag: flag.name })

/** Splits `docker run` flags as Docker's CLI (spf13/pflag) does, up to the image: answers the flags and the index of the image. */
function readFlags(words: Word[], from: number): { flags: Flag[]; image: number } {
  const flags: Flag[] = []
  let index = from
  while (index < words.length) {
    const { text, start } = words[index]
    if (text === '--') return { flags, image: index + 1 }
    if (!text.startsWith('-') || text === '-') return { flags, image: index }
    index++
    if (text.startsWith('--')) {
      const equals = text.indexOf('=')
      const name = equals === -1 ? text : text.slice(0, equals)
      if (!KNOWN.has(name)) throw unknownFlag(name, start)
      if (VALUED.has(name)) {
        let value = equals === -1 ? undefined : text.slice(equals + 1)
        if (value === undefined) {
          if (index >= words.length) throw flagError('The flag {flag} needs a value', { name, value, off: false, start })
          value = words[index++].text
        }
        flags.push({ name, value, off: false, start })
      } else {
        const setting = equals === -1 ? 'true' : text.slice(equals + 1)
        if (!/^(?:true|false|1|0)$/.test(setting)) throw flagError('The flag {flag} takes true or false', { name, value: undefined, off: false, start })
        flags.push({ name, value: undefined, off: setting === 'false' || setting === '0', start })
      }
      continue
    }
    // A group of one-letter flags (-it, -dp 80:80): each a boolean, until one that takes the rest as its value.
    for (let letter = 1; letter < text.length; letter++) {
      const name = `-${text[letter]}`
      if (!KNOWN.has(name)) throw unknownFlag(name, start)
      if (!VALUED.has(name)) {
        flags.push({ name, value: undefined, off: false, start })
        continue
      }
      let value = text.slice(letter + 1)
      if (value.startsWith('=')) value = value.slice(1)
      else if (value === '') {
        if (index >= words.length) throw flagError('The flag {flag} needs a value', { name, value, off: false, start })
        value = words[index++].text
      }
      flags.push({ name, value, off: false, start })
      break
    }
  }
  return { flags, image: index }
}

function unknownFlag(name: string, position: number) {
  if (WITHOUT_COMPOSE_FORM.has(name)) {
    return invalidInput(`The flag ${name} (at position ${position}) has no Compose form; remove it, or set it on the container after docker compose up`, {
      position,
      flag: name,
    })
  }
  return invalidInput(`The flag ${name} (at position ${position}) is not a docker run flag this converter knows`, { position, flag: name })
}

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

/** Seconds as a Compose duration: 90 → 1m30s. */
export function secondsToDuration(seconds: number): string {
  if (seconds === 0) return '0s'
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const rest = seconds % 60
  return `${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}${rest ? `${rest}s` : ''}`
}

/** A Compose duration in seconds; undefined when it is not one. */
function durationToSeconds(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined
  const scale: Record<string, number> = { us: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 }
  let total = 0
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)(us|ms|s|m|h)/g)) total += Number(amount) * scale[unit]
  return total
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

interface RunState {
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

const listOf = (target: Json, key: string): unknown[] => {
  if (!Array.isArray(target[key])) setOwn(target, key, [])
  return target[key] as unknown[]
}
const mapOf = (target: Json, key: string): Json => {
  const current = target[key]
  if (current === null || typeof current !== 'object' || Array.isArray(current)) setOwn(target, key, {})
  return target[key] as Json
}

function applySimple(state: RunState, entry: (typeof SIMPLE)[number], flag: Flag): void {
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

function applySpecial(state: RunState, flag: Flag): void {
  const value = flag.value ?? ''
  const { service, healthcheck } = state
  // The healthcheck and logging sections take their place in the service at their first flag.
  if (flag.name.startsWith('--health-') || flag.name === '--no-healthcheck') service.healthcheck = healthcheck
  if (flag.name.startsWith('--log-')) service.logging = state.logging
  switch (flag.name) {
    case '-v':
    case '--volume':
      applyVolume(state, flag)
      return
    case '--mount':
      applyMount(state, flag)
      return
    case '--network':
    case '--net':
      applyNetwork(state, flag)
      return
    case '--network-alias':
    case '--net-alias':
      state.networkOptions.push({ flag, key: 'aliases', value })
      return
    case '--ip':
      state.networkOptions.push({ flag, key: 'ipv4_address', value })
      return
    case '--ip6':
      state.networkOptions.push({ flag, key: 'ipv6_address', value })
      return
    case '--link-local-ip':
      state.networkOptions.push({ flag, key: 'link_local_ips', value })
      return
    case '--blkio-weight-device':
    case '--device-read-bps':
    case '--device-read-iops':
    case '--device-write-bps':
    case '--device-write-iops': {
      const colon = value.lastIndexOf(':')
      if (colon <= 0 || colon === value.length - 1) throw flagError('The value of {flag} must be device-path:value', flag)
      const [path, setting] = [value.slice(0, colon), value.slice(colon + 1)]
      const key = flag.name === '--blkio-weight-device' ? 'weight_device' : flag.name.slice(2).replaceAll('-', '_')
      const rate =
        flag.name === '--blkio-weight-device' || flag.name.endsWith('iops') ? typed('int', setting, flag) : INTEGER.test(setting) ? Number(setting) : setting
      listOf(mapOf(service, 'blkio_config'), key).push(flag.name === '--blkio-weight-device' ? { path, weight: rate } : { path, rate })
      return
    }
    case '--entrypoint':
      service.entrypoint = value === '' ? [] : [value]
      return
    case '--ulimit':
      applyUlimit(state, flag)
      return
    case '--stop-timeout': {
      if (!/^\d+$/.test(value)) throw flagError('The value of {flag} must be a whole number of seconds', flag)
      service.stop_grace_period = secondsToDuration(Number(value))
      return
    }
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
    case '--log-driver':
      state.logging.driver = value
      return
    case '--log-opt': {
      const [key, item] = keyValue(value)
      if (key === '' || item === undefined) throw flagError('The value of {flag} must be name=value', flag)
      setOwn(mapOf(state.logging, 'options'), key, item)
      return
    }
    case '--blkio-weight':
      mapOf(service, 'blkio_config').weight = typed('int', value, flag)
      return
    case '--gpus':
      applyGpus(state, flag)
      return
  }
}

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

function runToCompose(input: string, options: RunOptions) {
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

const BLKIO_DEVICE_FLAGS: Record<string, string> = {
  weight_device: '--blkio-weight-device',
  device_read_bps: '--device-read-bps',
  device_read_iops: '--device-read-iops',
  device_write_bps: '--device-write-bps',
  device_write_iops: '--device-write-iops',
}

/** Compose keys with no `docker run` form, and why. */
const KEYS_WITHOUT_RUN_FORM: Record<string, string> = {
  build: 'docker run runs an image; build it first with docker build',
  depends_on: 'docker run starts one container; start the ones it depends on first',
  deploy: 'replicas, placement and update settings belong to docker compose and Swarm; for resources, use mem_limit and cpus',
  profiles: 'profiles choose which services docker compose starts',
  secrets: 'Compose mounts secrets from its own top-level definitions; use a bind mount (-v) of the file instead',
  configs: 'Compose mounts configs from its own top-level definitions; use a bind mount (-v) of the file instead',
  develop: 'file watching is a feature of docker compose watch',
  extends: 'extends merges another service definition when Compose reads the file',
  scale: 'docker run starts one container',
  attach: 'docker compose up attaches to the service’s output; docker run does unless -d is given',
  post_start: 'lifecycle hooks are run by docker compose',
  pre_stop: 'lifecycle hooks are run by docker compose',
  external_links: 'use --link or a shared network',
  models: 'models are provided by docker compose',
  provider: 'providers are run by docker compose',
  credential_spec: 'use --security-opt credentialspec=… on Windows',
  pull_refresh_after: 'a pull policy of docker compose',
}

interface RunCommand {
  flags: string[][]
  ignored: Array<{ key: string; reason: string }>
  warnings: WarningList
  variables: Set<string>
  size: number
}

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)

const composeError = (message: string, path: string) => invalidInput(`${path} ${message}`, { path })

function text(value: unknown, path: string): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  throw composeError('must be a string or a number', path)
}

function add(command: RunCommand, flag: string, value?: string): void {
  const parts = [flag]
  if (value !== undefined) {
    const { word, variables } = composeValueToShell(value)
    for (const variable of variables) command.variables.add(variable)
    parts.push(word)
  }
  command.flags.push(parts)
  grow(command, flag.length + (parts[1]?.length ?? 0) + 5)
}

/**
 * Counts the command's length as it is built, and refuses a command longer than Linux lets one
 * command's arguments be (ARG_MAX at the default stack size): no shell could run it.
 */
function grow(command: RunCommand, length: number): void {
  command.size += length
  if (command.size > COMMAND_LIMIT) {
    throw limitExceeded(`The docker run command would be longer than ${COMMAND_LIMIT} characters, more than Linux lets a command's arguments be (ARG_MAX)`, {
      limit: COMMAND_LIMIT,
    })
  }
}

/** A list key: a list of strings (or a single string, which Compose takes as a list of one). */
function items(value: unknown, path: string): Array<[unknown, string]> {
  if (Array.isArray(value)) return value.map((item, index) => [item, `${path}[${index}]`])
  if (value === null || value === undefined) return []
  return [[value, path]]
}

function portText(port: unknown, path: string): string {
  if (!isObject(port)) return text(port, path)
  if (port.target === undefined) throw composeError('has no target', path)
  let result = text(port.target, `${path}.target`)
  if (port.published !== undefined) result = `${text(port.published, `${path}.published`)}:${result}`
  if (port.host_ip !== undefined) {
    const host = text(port.host_ip, `${path}.host_ip`)
    result = `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port.published === undefined ? ':' : ''}${result}`
  }
  if (port.protocol !== undefined) result += `/${text(port.protocol, `${path}.protocol`)}`
  return result
}

interface TopLevel {
  volumes: Json
  networks: Json
}

/** The name Docker knows a top-level volume or network by: its `name`, else its key. */
function realName(definitions: Json, key: string): string {
  const definition = definitions[key]
  return isObject(definition) && typeof definition.name === 'string' ? definition.name : key
}

function volumeFlag(command: RunCommand, volume: unknown, path: string, top: TopLevel, used: Set<string>): void {
  if (!isObject(volume)) {
    let value = text(volume, path)
    const colon = value.indexOf(':')
    const source = colon > 0 ? value.slice(0, colon) : ''
    if (NAMED_VOLUME.test(source) && Object.hasOwn(top.volumes, source)) {
      used.add(source)
      value = `${realName(top.volumes, source)}${value.slice(colon)}`
    }
    add(command, '-v', value)
    return
  }
  const fields: string[] = []
  const type = volume.type === undefined ? 'volume' : text(volume.type, `${path}.type`)
  fields.push(`type=${type}`)
  if (volume.source !== undefined) {
    let source = text(volume.source, `${path}.source`)
    if (type === 'volume' && Object.hasOwn(top.volumes, source)) {
      used.add(source)
      source = realName(top.volumes, source)
    }
    fields.push(`source=${source}`)
  }
  if (volume.target === undefined) throw composeError('has no target', path)
  fields.push(`target=${text(volume.target, `${path}.target`)}`)
  if (volume.read_only === true) fields.push('readonly')
  const section = (name: string) => (isObject(volume[name]) ? (volume[name] as Json) : {})
  for (const [key, item] of Object.entries(section('bind'))) {
    if (key === 'propagation') fields.push(`bind-propagation=${text(item, `${path}.bind.propagation`)}`)
    else command.warnings.add(`${path}.bind.${key} has no --mount form and was left out`)
  }
  for (const [key, item] of Object.entries(section('volume'))) {
    if (key === 'nocopy') {
      if (item === true) fields.push('volume-nocopy')
    } else if (key === 'subpath') fields.push(`volume-subpath=${text(item, `${path}.volume.subpath`)}`)
    else command.warnings.add(`${path}.volume.${key} has no --mount form and was left out`)
  }
  for (const [key, item] of Object.entries(section('tmpfs'))) {
    if (key === 'size') fields.push(`tmpfs-size=${text(item, `${path}.tmpfs.size`)}`)
    else if (key === 'mode') fields.push(`tmpfs-mode=${typeof item === 'number' ? item.toString(8) : text(item, `${path}.tmpfs.mode`)}`)
    else command.warnings.add(`${path}.tmpfs.${key} has no --mount form and was left out`)
  }
  if (volume.consistency !== undefined) fields.push(`consistency=${text(volume.consistency, `${path}.consistency`)}`)
  add(command, '--mount', fields.join(','))
}

function networkFlags(command: RunCommand, networks: unknown, path: string, top: TopLevel, setup: string[]): void {
  const entries: Array<[string, Json]> = Array.isArray(networks)
    ? networks.map((network, index) => [text(network, `${path}[${index}]`), {}])
    : isObject(networks)
      ? Object.entries(networks).map(([network, options]) => [network, isObject(options) ? options : {}])
      : []
  if (!Array.isArray(networks) && !isObject(networks) && networks !== null) throw composeError('must be a list or a mapping of networks', path)
  entries.forEach(([key, options], index) => {
    const name = realName(top.networks, key)
    const definition = top.networks[key]
    if (!(isObject(definition) && definition.external === true)) {
      const driver = isObject(definition) && typeof definition.driver === 'string' ? ` --driver ${shellQuote(definition.driver)}` : ''
      setup.push(`docker network create${driver} ${shellQuote(name)}`)
    }
    const aliases = items(options.aliases, `${path}.${key}.aliases`).map(([alias, where]) => text(alias, where))
    const ip = options.ipv4_address === undefined ? undefined : text(options.ipv4_address, `${path}.${key}.ipv4_address`)
    const ip6 = options.ipv6_address === undefined ? undefined : text(options.ipv6_address, `${path}.${key}.ipv6_address`)
    const linkLocal = items(options.link_local_ips, `${path}.${key}.link_local_ips`).map(([address, where]) => text(address, where))
    if (index === 0) {
      add(command, '--network', name)
      for (const alias of aliases) add(command, '--network-alias', alias)
      if (ip !== undefined) add(command, '--ip', ip)
      if (ip6 !== undefined) add(command, '--ip6', ip6)
      for (const address of linkLocal) add(command, '--link-local-ip', address)
      return
    }
    const quoted = (field: string) => (field.includes(',') || field.includes('"') ? `"${field.replaceAll('"', '""')}"` : field)
    const fields = [
      `name=${name}`,
      ...aliases.map((alias) => `alias=${alias}`),
      ...(ip === undefined ? [] : [`ip=${ip}`]),
      ...(ip6 === undefined ? [] : [`ip6=${ip6}`]),
      ...linkLocal.map((address) => `link-local-ip=${address}`),
    ]
    add(command, '--network', fields.length === 1 ? name : fields.map(quoted).join(','))
  })
}

function healthcheckFlags(command: RunCommand, healthcheck: unknown, path: string): void {
  if (!isObject(healthcheck)) throw composeError('must be a mapping', path)
  if (healthcheck.disable === true) {
    add(command, '--no-healthcheck')
    return
  }
  const { test } = healthcheck
  if (typeof test === 'string') add(command, '--health-cmd', test)
  else if (Array.isArray(test)) {
    const [form, ...rest] = test.map((item, index) => text(item, `${path}.test[${index}]`))
    if (form === 'NONE') {
      add(command, '--no-healthcheck')
      return
    }
    if (form === 'CMD-SHELL') add(command, '--health-cmd', rest.join(' '))
    else if (form === 'CMD') {
      add(command, '--health-cmd', rest.map(shellQuote).join(' '))
      command.warnings.add(`${path}.test is an exec-form ["CMD", …] test, which docker run cannot give; it is written as a shell command (CMD-SHELL)`)
    } else throw composeError('must start with NONE, CMD or CMD-SHELL', `${path}.test`)
  } else if (test !== undefined && test !== null) throw composeError('must be a string or a list', `${path}.test`)
  for (const key of ['interval', 'timeout', 'start_period', 'start_interval']) {
    if (healthcheck[key] !== undefined) add(command, `--health-${key.replace('_', '-')}`, text(healthcheck[key], `${path}.${key}`))
  }
  if (healthcheck.retries !== undefined) add(command, '--health-retries', text(healthcheck.retries, `${path}.retries`))
}

function gpuFlags(command: RunCommand, gpus: unknown, path: string): void {
  if (gpus === 'all') {
    add(command, '--gpus', 'all')
    return
  }
  items(gpus, path).forEach(([request, where]) => {
    if (!isObject(request)) throw composeError('must be a mapping of count, device_ids, driver and capabilities', where)
    const fields: string[] = []
    const list = (key: string) => items(request[key], `${where}.${key}`).map(([item, at]) => text(item, at))
    if (request.count !== undefined) fields.push(`count=${text(request.count, `${where}.count`)}`)
    if (request.device_ids !== undefined) fields.push(`device=${list('device_ids').join(',')}`)
    if (request.driver !== undefined) fields.push(`driver=${text(request.driver, `${where}.driver`)}`)
    if (request.capabilities !== undefined) fields.push(`capabilities=${list('capabilities').join(',')}`)
    add(command, '--gpus', fields.map((field) => (field.includes(',') ? `"${field}"` : field)).join(','))
  })
}

/** A `command` or `entrypoint`: a list as it is, a string split into words as Compose splits it (no shell, no expansion). */
function commandWords(value: unknown, path: string): string[] {
  if (value === null || value === undefined) return []
  if (typeof value === 'string') return shellWords(value, 'literal').map((word) => word.text)
  if (Array.isArray(value)) return value.map((item, index) => text(item, `${path}[${index}]`))
  throw composeError('must be a string or a list', path)
}

function simpleFlags(command: RunCommand, entry: (typeof SIMPLE)[number], value: unknown, path: string): void {
  const flag = entry.flags[0]
  switch (entry.shape) {
    case 'bool':
      if (typeof value !== 'boolean') throw composeError('must be true or false', path)
      if (value) add(command, flag)
      return
    case 'string':
    case 'int':
    case 'number':
      add(command, flag, text(value, path))
      return
    case 'list':
      if (entry.key === 'extra_hosts' && isObject(value)) {
        for (const [host, addresses] of Object.entries(value)) {
          for (const [address, where] of items(addresses, `${path}.${host}`)) add(command, flag, `${host}=${text(address, where)}`)
        }
        return
      }
      for (const [item, where] of items(value, path)) {
        if (entry.key === 'ports') add(command, flag, portText(item, where))
        else if ((entry.key === 'env_file' || entry.key === 'label_file') && isObject(item)) add(command, flag, text(item.path, `${where}.path`))
        else if (entry.key === 'devices' && isObject(item)) {
          const parts = [item.source, item.target, item.permissions].filter((part) => part !== undefined)
          add(command, flag, parts.map((part, index) => text(part, `${where}[${index}]`)).join(':'))
        } else add(command, flag, text(item, where))
      }
      return
    case 'map':
    case 'env':
      if (Array.isArray(value)) {
        for (const [item, where] of items(value, path)) add(command, flag, text(item, where))
        return
      }
      if (!isObject(value)) throw composeError('must be a mapping or a list', path)
      for (const [key, item] of Object.entries(value)) {
        add(command, flag, item === null ? (entry.shape === 'env' ? key : `${key}=`) : `${key}=${text(item, `${path}.${key}`)}`)
      }
      return
  }
}

function composeToRun(input: string, serviceName: string | undefined, multiline: boolean) {
  const { result: documents, warnings: yamlWarnings } = yamlToJsonByLibrary(input, true)
  if ((documents as unknown[]).length > 1) {
    throw invalidInput(`The input holds ${(documents as unknown[]).length} YAML documents; give one Compose file`, {
      documents: (documents as unknown[]).length,
    })
  }
  const [root] = documents as unknown[]
  if (!isObject(root) || !isObject(root.services)) throw invalidInput('The Compose file has no services mapping', { path: 'services' })
  const names = Object.keys(root.services)
  const listed = `${names
    .slice(0, 20)
    .map((name) => (name.length > 40 ? `${name.slice(0, 40)}…` : name))
    .join(', ')}${names.length > 20 ? ', …' : ''}`
  if (names.length === 0) throw invalidInput('The Compose file defines no service', { path: 'services' })
  if (serviceName === undefined && names.length > 1) {
    throw invalidInput(`The Compose file defines ${names.length} services; set service to the one to convert: ${listed}`, { services: names.slice(0, 100) })
  }
  const name = serviceName ?? names[0]
  if (!Object.hasOwn(root.services, name))
    throw invalidInput(`The Compose file defines no service by that name; its services are: ${listed}`, { services: names.slice(0, 100) })
  const service = root.services[name]
  const base = `services.${name}`
  if (!isObject(service)) throw composeError('must be a mapping', base)
  if (typeof service.image !== 'string')
    throw composeError('has no image; docker run needs one (a service that is only built has no docker run form)', `${base}.image`)
  const top: TopLevel = { volumes: isObject(root.volumes) ? root.volumes : {}, networks: isObject(root.networks) ? root.networks : {} }
  const command: RunCommand = { flags: [], ignored: [], warnings: new WarningList(), variables: new Set(), size: 0 }
  for (const warning of yamlWarnings) command.warnings.add(warning)
  const setup: string[] = []
  const usedVolumes = new Set<string>()
  let entrypoint: string[] | undefined
  let args: string[] = []
  const keys = Object.keys(service).sort((a, b) => Number(b === 'container_name') - Number(a === 'container_name'))
  for (const key of keys) {
    const value = service[key]
    const path = `${base}.${key}`
    const simple = SIMPLE_BY_KEY.get(key)
    if (key === 'image') continue
    if (simple) simpleFlags(command, simple, value, path)
    else if (key === 'command') args = commandWords(value, path)
    else if (key === 'entrypoint') entrypoint = commandWords(value, path)
    else if (key === 'volumes') for (const [volume, where] of items(value, path)) volumeFlag(command, volume, where, top, usedVolumes)
    else if (key === 'networks') networkFlags(command, value, path, top, setup)
    else if (key === 'network_mode') {
      const mode = text(value, path)
      if (mode.startsWith('service:'))
        command.ignored.push({ key, reason: 'service: names a Compose service; give docker run --network container:<its container name>' })
      else add(command, '--network', mode)
    } else if (key === 'healthcheck') healthcheckFlags(command, value, path)
    else if (key === 'stop_grace_period') {
      const seconds = durationToSeconds(text(value, path))
      if (seconds === undefined) throw composeError('must be a duration such as 30s or 1m30s', path)
      const whole = Math.ceil(seconds - 1e-9)
      if (whole !== seconds) command.warnings.add(`${path} is rounded up to ${whole} whole seconds, which --stop-timeout takes`)
      add(command, '--stop-timeout', String(whole))
    } else if (key === 'ulimits') {
      if (!isObject(value)) throw composeError('must be a mapping', path)
      for (const [limit, setting] of Object.entries(value)) {
        const where = `${path}.${limit}`
        add(
          command,
          '--ulimit',
          isObject(setting) ? `${limit}=${text(setting.soft, `${where}.soft`)}:${text(setting.hard, `${where}.hard`)}` : `${limit}=${text(setting, where)}`,
        )
      }
    } else if (key === 'logging') {
      if (!isObject(value)) throw composeError('must be a mapping', path)
      if (value.driver !== undefined) add(command, '--log-driver', text(value.driver, `${path}.driver`))
      if (isObject(value.options))
        for (const [option, setting] of Object.entries(value.options)) add(command, '--log-opt', `${option}=${text(setting, `${path}.options.${option}`)}`)
    } else if (key === 'blkio_config') {
      if (!isObject(value)) throw composeError('must be a mapping', path)
      for (const [setting, item] of Object.entries(value)) {
        if (setting === 'weight') add(command, '--blkio-weight', text(item, `${path}.weight`))
        else if (Object.hasOwn(BLKIO_DEVICE_FLAGS, setting)) {
          for (const [device, where] of items(item, `${path}.${setting}`)) {
            if (!isObject(device)) throw composeError('must be a mapping of path and rate (or weight)', where)
            const amount = setting === 'weight_device' ? device.weight : device.rate
            add(
              command,
              BLKIO_DEVICE_FLAGS[setting],
              `${text(device.path, `${where}.path`)}:${text(amount, `${where}.${setting === 'weight_device' ? 'weight' : 'rate'}`)}`,
            )
          }
        } else command.ignored.push({ key: `blkio_config.${setting}`, reason: 'not a block IO setting docker run has a flag for' })
      }
    } else if (key === 'gpus') gpuFlags(command, value, path)
    else if (key.startsWith('x-')) command.ignored.push({ key, reason: 'an extension field, which only tools that know it read' })
    else
      command.ignored.push({
        key,
        reason: Object.hasOwn(KEYS_WITHOUT_RUN_FORM, key) ? KEYS_WITHOUT_RUN_FORM[key] : 'not a Compose service key this converter knows a docker run flag for',
      })
  }
  for (const volume of usedVolumes) {
    const definition = top.volumes[volume]
    if (isObject(definition) && definition.external === true) continue
    const driver = isObject(definition) && typeof definition.driver === 'string' ? ` --driver ${shellQuote(definition.driver)}` : ''
    const options =
      isObject(definition) && isObject(definition.driver_opts)
        ? Object.entries(definition.driver_opts)
            .map(([option, setting]) => ` --opt ${shellQuote(`${option}=${text(setting, `volumes.${volume}.driver_opts.${option}`)}`)}`)
            .join('')
        : ''
    setup.push(`docker volume create${driver}${options} ${shellQuote(realName(top.volumes, volume))}`)
  }
  if (entrypoint !== undefined) {
    add(command, '--entrypoint', entrypoint[0] ?? '')
    args = [...entrypoint.slice(1), ...args]
  }
  const tail: string[] = []
  for (const arg of [service.image, ...args]) {
    const { word, variables } = composeValueToShell(arg)
    for (const variable of variables) command.variables.add(variable)
    grow(command, word.length + 1)
    tail.push(word)
  }
  const last = tail.join(' ')
  const lines = ['docker run', ...command.flags.map((parts) => parts.join(' ')), last]
  if (command.variables.size > 0) {
    command.warnings.add(
      `${[...command.variables].map((variable) => `\${${variable}}`).join(', ')} ${command.variables.size === 1 ? 'is' : 'are'} left in double quotes for your shell to expand, as Compose would have interpolated ${command.variables.size === 1 ? 'it' : 'them'}`,
    )
  }
  return {
    result: lines.join(multiline ? ' \\\n  ' : ' '),
    action: 'composeToRun' as const,
    setup,
    ignored: command.ignored,
    warnings: command.warnings.list(),
  }
}

const RUN_DEFAULTS = { indent: 2 } as const
const COMPOSE_DEFAULTS = { multiline: true } as const

export const dockerCompose = defineOperation({
  name: 'docker-compose',
  category: 'converters',
  summary: 'Convert a docker run command to a Compose service, and a Compose service to a docker run command',
  title: 'docker run and Compose',
  aliases: [
    'docker run to compose',
    'compose to docker run',
    'docker compose',
    'docker-compose.yml',
    'compose.yaml',
    'composerize',
    'decomposerize',
    'docker run command',
    'container',
    'compose file',
    'compose service',
  ],
  description:
    '`runToCompose` (the default) reads one `docker run` (or `docker container run`, optionally after `sudo`) command and writes it as a Compose file of one service, following the Compose Specification’s service keys and Docker’s `docker container run` reference. ' +
    'The command is split into words as POSIX sh does (single and double quotes, backslashes, backslash-newline continuations) but nothing is run or expanded: `$VAR` and `${VAR}` outside single quotes become Compose’s `${VAR}`, interpolated when Compose reads the file as your shell would have expanded them (a warning lists them), and a literal `$` (in single quotes, or escaped) is written `$$`. ' +
    'Shell operators (`;`, `|`, `&&`, `>`, `<`), command substitutions (`$(…)`, backquotes), a second command, a command with no image and a flag this converter does not know are refused (422) with their position; a bad value is refused naming its flag, never echoing the value, since values may be secrets. ' +
    'The service is named by `serviceName`, else by `--name`, else by the image’s last path segment. Ports and exposed ports are always quoted strings (YAML 1.1 reads 22:22 as a base-60 number); `--stop-timeout 90` becomes `stop_grace_period: 1m30s`; a named volume is declared at the top level with its own name (so Compose uses the same volume as docker run, not one prefixed by the project name); a user-defined network is declared `external: true`; `--network-alias`, `--ip` and `--ip6` apply to the first user-defined network. ' +
    'A value repeated in a list flag is written once, as Compose lists require; a single-valued flag given twice keeps its last value, as Docker does. ' +
    '`-d`, `--rm`, `-a`, `--sig-proxy`, `--cidfile`, `--detach-keys`, `-q`, `--disable-content-trust` and `-P` are accepted and listed in `ignored` with the reason they have no Compose form. ' +
    '`composeToRun` reads a Compose file (YAML 1.2; more than 100 levels of nesting, an alias expanding past the output limit or a repeated key is a 422 with the line) and writes the `docker run` command of one service (`service`, needed when the file has several). Values are single-quoted for the shell where needed; a Compose `${VAR}` is left in double quotes for your shell to expand, with a warning; a command longer than 2 MiB, the arguments Linux lets one command have (ARG_MAX), is a 422 LIMIT_EXCEEDED. ' +
    '`setup` lists the `docker network create` and `docker volume create` commands to run first (external networks and volumes excepted); `ignored` lists keys with no `docker run` form (build, depends_on, deploy, profiles, secrets, configs, develop, extends…) with the reason; an exec-form healthcheck test is written as a shell command, with a warning. ' +
    `Commands over ${RUN_OFFLOAD_THRESHOLD / 1024} KiB and Compose files over ${YAML_OFFLOAD_THRESHOLD / 1024} KiB run on a worker thread. Not served over GET: a command carries secrets (-e PASSWORD=…).`,
  input: Type.Object(
    {
      input: Type.String({
        maxLength: MAX_INPUT,
        writeOnly: true,
        description:
          'runToCompose: one docker run command; backslash-newlines join its lines. composeToRun: a Compose file (YAML). It may hold secrets (-e PASSWORD=…): never logged, never put in a shared link, and errors name flags and positions, never values.',
        examples: ['docker run -d --name web -p 8080:80 nginx:1.27'],
      }),
      action: withDefault(
        Type.Enum(ACTIONS, {
          description: 'Write a docker run command as Compose (`runToCompose`), or a Compose service as a docker run command (`composeToRun`).',
        }),
        'runToCompose',
      ),
      projectName: Type.Optional(
        Type.String({
          pattern: NAME_PATTERN,
          maxLength: 63,
          description: 'runToCompose: the Compose project name, written as the top-level `name`; omitted, the file has none.',
        }),
      ),
      serviceName: Type.Optional(
        Type.String({
          pattern: NAME_PATTERN,
          maxLength: 63,
          description: 'runToCompose: the service’s name; omitted, it is taken from --name, else from the image’s last path segment without its tag.',
        }),
      ),
      indent: withDefault(
        Type.Integer({ minimum: 1, maximum: 8, description: 'runToCompose: spaces per indentation level of the YAML, 1 to 8.' }),
        RUN_DEFAULTS.indent,
      ),
      service: Type.Optional(
        Type.String({ minLength: 1, maxLength: 1000, description: 'composeToRun: the service to convert; needed when the file defines more than one.' }),
      ),
      multiline: withDefault(
        Type.Boolean({ description: 'composeToRun: write each flag on a line of its own, lines joined by a backslash-newline; false writes one line.' }),
        COMPOSE_DEFAULTS.multiline,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'runToCompose: the Compose file (YAML). composeToRun: the docker run command.' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    service: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'runToCompose: the service, as a JSON object.' })),
    setup: Type.Optional(
      Type.Array(Type.String(), {
        description: 'composeToRun: the commands to run before the docker run command (docker network create, docker volume create).',
      }),
    ),
    ignored: Type.Array(
      Type.Object({
        flag: Type.Optional(Type.String({ description: 'runToCompose: the docker run flag.' })),
        key: Type.Optional(Type.String({ description: 'composeToRun: the Compose key.' })),
        reason: Type.String({ description: 'Why it has no equivalent.' }),
      }),
      { description: 'What was accepted but has no equivalent on the other side, each with the reason.' },
    ),
    warnings: Type.Array(Type.String(), {
      description: 'What the reader should check: variables left to interpolate, healthchecks rewritten, values rounded.',
    }),
  }),
  actions: {
    runToCompose: { fields: ['input', 'projectName', 'serviceName', 'indent'] },
    composeToRun: { fields: ['input', 'service', 'multiline'] },
  },
  examples: [
    {
      summary: 'A docker run command as a Compose service',
      input: { input: 'docker run -d --name web -p 8080:80 -e TZ=Europe/Paris -v html:/usr/share/nginx/html:ro --restart unless-stopped nginx:1.27' },
      output: {
        result:
          'services:\n  web:\n    image: nginx:1.27\n    container_name: web\n    ports:\n      - "8080:80"\n    environment:\n      TZ: Europe/Paris\n    volumes:\n      - html:/usr/share/nginx/html:ro\n    restart: unless-stopped\nvolumes:\n  html:\n    name: html\n',
        action: 'runToCompose',
        service: {
          image: 'nginx:1.27',
          container_name: 'web',
          ports: ['8080:80'],
          environment: { TZ: 'Europe/Paris' },
          volumes: ['html:/usr/share/nginx/html:ro'],
          restart: 'unless-stopped',
        },
        ignored: [{ flag: '-d', reason: IGNORED['-d'].reason }],
        warnings: [],
      },
    },
    {
      summary: 'Healthcheck, ulimits and a stop timeout; a variable left for Compose',
      input: {
        input:
          'docker run --health-cmd \'pg_isready -U postgres\' --health-interval 10s --ulimit nofile=20000:40000 --stop-timeout 90 \\\n  -e POSTGRES_PASSWORD="$PGPASS" postgres:17 -c max_connections=200',
        projectName: 'db',
      },
      output: {
        result:
          'name: db\nservices:\n  postgres:\n    image: postgres:17\n    healthcheck:\n      test: pg_isready -U postgres\n      interval: 10s\n    ulimits:\n      nofile:\n        soft: 20000\n        hard: 40000\n    stop_grace_period: 1m30s\n    environment:\n      POSTGRES_PASSWORD: ${PGPASS}\n    command:\n      - -c\n      - max_connections=200\n',
        action: 'runToCompose',
        service: {
          image: 'postgres:17',
          healthcheck: { test: 'pg_isready -U postgres', interval: '10s' },
          ulimits: { nofile: { soft: 20000, hard: 40000 } },
          stop_grace_period: '1m30s',
          environment: { POSTGRES_PASSWORD: '${PGPASS}' },
          command: ['-c', 'max_connections=200'],
        },
        ignored: [],
        warnings: ['Compose interpolates ${PGPASS} when it reads the file (from the environment or an .env file), as your shell would have expanded it'],
      },
    },
    {
      summary: 'A Compose service as a docker run command',
      input: {
        input:
          'services:\n  api:\n    image: ghcr.io/acme/api:2\n    ports: ["127.0.0.1:8001:8001"]\n    environment:\n      GREETING: "it\'s $$5"\n    networks: [backend]\n    depends_on: [db]\nnetworks:\n  backend: {}\n',
        action: 'composeToRun',
      },
      output: {
        result: "docker run \\\n  -p 127.0.0.1:8001:8001 \\\n  -e 'GREETING=it'\\''s $5' \\\n  --network backend \\\n  ghcr.io/acme/api:2",
        action: 'composeToRun',
        setup: ['docker network create backend'],
        ignored: [{ key: 'depends_on', reason: KEYS_WITHOUT_RUN_FORM.depends_on }],
        warnings: [],
      },
    },
  ],
  offload: ({ input, action }) => input.length > (action === 'composeToRun' ? YAML_OFFLOAD_THRESHOLD : RUN_OFFLOAD_THRESHOLD),
  run({ input, action, projectName, serviceName, indent, service, multiline }) {
    if (action === 'runToCompose') {
      if (service !== undefined) throw validationError('service', 'is for composeToRun only')
      if (multiline !== COMPOSE_DEFAULTS.multiline) throw validationError('multiline', 'is for composeToRun only')
      return runToCompose(input, { projectName, serviceName, indent })
    }
    if (projectName !== undefined) throw validationError('projectName', 'is for runToCompose only')
    if (serviceName !== undefined) throw validationError('serviceName', 'is for runToCompose only')
    if (indent !== RUN_DEFAULTS.indent) throw validationError('indent', 'is for runToCompose only')
    return composeToRun(input, service, multiline)
  },
})
