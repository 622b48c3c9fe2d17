// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is Compose's interpolation syntax, written in plain strings on purpose
import { invalidInput } from '../../core/errors.ts'
import { WarningList } from '../../lib/json/value.ts'
import { yamlToJsonByLibrary } from '../../lib/yaml/yaml-to-json.ts'
import {
  add,
  blkioFlags,
  commandWords,
  composeError,
  gpuFlags,
  grow,
  healthcheckFlags,
  items,
  loggingFlags,
  networkFlags,
  type RunCommand,
  realName,
  simpleFlags,
  stopTimeoutFlag,
  type TopLevel,
  text,
  ulimitFlags,
  volumeFlag,
} from './compose-flags.ts'
import { isObject } from './compose-values.ts'
import { KEYS_WITHOUT_RUN_FORM, SIMPLE_BY_KEY } from './flag-table.ts'
import { composeValueToShell, shellQuote } from './shell.ts'

/** The Compose file's root and the service to convert, refused unless there is exactly one to choose or it is named. */
function chosenService(input: string, serviceName: string | undefined) {
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
  return { root, service, image: service.image, base, yamlWarnings }
}

export function composeToRun(input: string, serviceName: string | undefined, multiline: boolean) {
  const { root, service, image, base, yamlWarnings } = chosenService(input, serviceName)
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
    else if (key === 'stop_grace_period') stopTimeoutFlag(command, value, path)
    else if (key === 'ulimits') ulimitFlags(command, value, path)
    else if (key === 'logging') loggingFlags(command, value, path)
    else if (key === 'blkio_config') blkioFlags(command, value, path)
    else if (key === 'gpus') gpuFlags(command, value, path)
    else if (key.startsWith('x-')) command.ignored.push({ key, reason: 'an extension field, which only tools that know it read' })
    else
      command.ignored.push({
        key,
        reason: Object.hasOwn(KEYS_WITHOUT_RUN_FORM, key) ? KEYS_WITHOUT_RUN_FORM[key] : 'not a Compose service key this converter knows a docker run flag for',
      })
  }
  setup.push(...volumeSetup(usedVolumes, top))
  if (entrypoint !== undefined) {
    add(command, '--entrypoint', entrypoint[0] ?? '')
    args = [...entrypoint.slice(1), ...args]
  }
  const tail: string[] = []
  for (const arg of [image, ...args]) {
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

/** The `docker volume create` commands of the top-level volumes the service uses, external ones excepted. */
function volumeSetup(usedVolumes: Set<string>, top: TopLevel): string[] {
  const setup: string[] = []
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
  return setup
}
