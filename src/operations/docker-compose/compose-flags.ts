// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is Compose's interpolation syntax, written in plain strings on purpose
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import type { WarningList } from '../../lib/json/value.ts'
import { durationToSeconds, isObject, type Json, NAMED_VOLUME } from './compose-values.ts'
import { BLKIO_DEVICE_FLAGS, type SimpleEntry } from './flag-table.ts'
import { composeValueToShell, shellQuote, shellWords } from './shell.ts'

const COMMAND_LIMIT = 2 * 1024 * 1024

export interface RunCommand {
  flags: string[][]
  ignored: Array<{ key: string; reason: string }>
  warnings: WarningList
  variables: Set<string>
  size: number
}

export const composeError = (message: string, path: string) => invalidInput(`${path} ${message}`, { path })

export function text(value: unknown, path: string): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  throw composeError('must be a string or a number', path)
}

export function add(command: RunCommand, flag: string, value?: string): void {
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
export function grow(command: RunCommand, length: number): void {
  command.size += length
  if (command.size > COMMAND_LIMIT) {
    throw limitExceeded(`The docker run command would be longer than ${COMMAND_LIMIT} characters, more than Linux lets a command's arguments be (ARG_MAX)`, {
      limit: COMMAND_LIMIT,
    })
  }
}

/** A list key: a list of strings (or a single string, which Compose takes as a list of one). */
export function items(value: unknown, path: string): Array<[unknown, string]> {
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

export interface TopLevel {
  volumes: Json
  networks: Json
}

/** The name Docker knows a top-level volume or network by: its `name`, else its key. */
export function realName(definitions: Json, key: string): string {
  const definition = definitions[key]
  return isObject(definition) && typeof definition.name === 'string' ? definition.name : key
}

export function volumeFlag(command: RunCommand, volume: unknown, path: string, top: TopLevel, used: Set<string>): void {
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

export function networkFlags(command: RunCommand, networks: unknown, path: string, top: TopLevel, setup: string[]): void {
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

export function healthcheckFlags(command: RunCommand, healthcheck: unknown, path: string): void {
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

export function gpuFlags(command: RunCommand, gpus: unknown, path: string): void {
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
export function commandWords(value: unknown, path: string): string[] {
  if (value === null || value === undefined) return []
  if (typeof value === 'string') return shellWords(value, 'literal').map((word) => word.text)
  if (Array.isArray(value)) return value.map((item, index) => text(item, `${path}[${index}]`))
  throw composeError('must be a string or a list', path)
}

export function simpleFlags(command: RunCommand, entry: SimpleEntry, value: unknown, path: string): void {
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

/** `stop_grace_period` as --stop-timeout, which takes whole seconds. */
export function stopTimeoutFlag(command: RunCommand, value: unknown, path: string): void {
  const seconds = durationToSeconds(text(value, path))
  if (seconds === undefined) throw composeError('must be a duration such as 30s or 1m30s', path)
  const whole = Math.ceil(seconds - 1e-9)
  if (whole !== seconds) command.warnings.add(`${path} is rounded up to ${whole} whole seconds, which --stop-timeout takes`)
  add(command, '--stop-timeout', String(whole))
}

export function ulimitFlags(command: RunCommand, value: unknown, path: string): void {
  if (!isObject(value)) throw composeError('must be a mapping', path)
  for (const [limit, setting] of Object.entries(value)) {
    const where = `${path}.${limit}`
    add(
      command,
      '--ulimit',
      isObject(setting) ? `${limit}=${text(setting.soft, `${where}.soft`)}:${text(setting.hard, `${where}.hard`)}` : `${limit}=${text(setting, where)}`,
    )
  }
}

export function loggingFlags(command: RunCommand, value: unknown, path: string): void {
  if (!isObject(value)) throw composeError('must be a mapping', path)
  if (value.driver !== undefined) add(command, '--log-driver', text(value.driver, `${path}.driver`))
  if (isObject(value.options))
    for (const [option, setting] of Object.entries(value.options)) add(command, '--log-opt', `${option}=${text(setting, `${path}.options.${option}`)}`)
}

export function blkioFlags(command: RunCommand, value: unknown, path: string): void {
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
}
