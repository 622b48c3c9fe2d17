// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is Compose's interpolation syntax, written in plain strings on purpose
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import { Ajv } from 'ajv'
import fc from 'fast-check'
import { parse as parseYaml } from 'yaml'
import { expectRefusal } from '../../../test/expect.ts'
import { runCallsInProcess } from '../../../test/in-process.ts'
import { execute, setOffloadPolicy } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { secondsToDuration } from './compose-values.ts'
import { dockerCompose } from './index.ts'
import { composeValueToShell, shellQuote, shellWords } from './shell.ts'

type Data = Record<string, unknown>
const wordsOf = (command: string) => shellWords(command, 'compose').map((word) => word.text)
const run = (input: Record<string, unknown>) => execute(dockerCompose, input) as Promise<Data>
const toCompose = (command: string, options: Data = {}) => run({ input: command, ...options })
const toRun = (compose: string, options: Data = {}) => run({ input: compose, action: 'composeToRun', ...options })
const serviceOf = async (command: string) => (await toCompose(command)).service as Data

/** The Compose Specification's JSON Schema (compose-spec/compose-spec, schema/compose-spec.json; see its SOURCE.txt). */
const schema = JSON.parse(readFileSync(new URL('../../../test/fixtures/suites/compose-spec/compose-spec.json', import.meta.url), 'utf8'))
const validateCompose = new Ajv({ strict: false, allErrors: true, validateSchema: false }).compile(schema)
const DURATION = /^(?:\d+(?:\.\d+)?(?:us|ms|s|m|h))+$/
const PROJECT_NAME = /^[a-z0-9][a-z0-9_-]*$/

/**
 * Every generated document must pass the Compose schema, and the checks the schema does not make:
 * durations in the specification's units, a valid project name, and a service name Compose accepts.
 */
function assertValidCompose(document: Data, context: string): void {
  assert.ok(validateCompose(document), `${context}: ${JSON.stringify(validateCompose.errors?.slice(0, 3))}`)
  if (document.name !== undefined) assert.match(String(document.name), PROJECT_NAME, context)
  for (const [name, service] of Object.entries(document.services as Record<string, Data>)) {
    assert.match(name, PROJECT_NAME, context)
    const durations = [
      service.stop_grace_period,
      ...Object.entries((service.healthcheck as Data) ?? {})
        .filter(([key]) => key !== 'test' && key !== 'retries' && key !== 'disable')
        .map(([, value]) => value),
    ]
    for (const value of durations) if (value !== undefined && !String(value).includes('${')) assert.match(String(value), DURATION, context)
  }
}

async function composeDocument(command: string, options: Data = {}): Promise<Data> {
  const answer = await toCompose(command, options)
  const document = parseYaml(answer.result as string) as Data
  assertValidCompose(document, command)
  return document
}

/**
 * The published examples of the Compose Specification (05-services.md, 12-interpolation.md), each as
 * the docker run flags that Docker's `docker container run` reference gives for the same setting.
 */
const VECTORS: Array<{ spec: string; flags: string; service: Data; yaml?: string }> = [
  { spec: '05-services.md ports', flags: '-p 127.0.0.1:8001:8001', service: { ports: ['127.0.0.1:8001:8001'] }, yaml: '- "127.0.0.1:8001:8001"' },
  { spec: '05-services.md ports', flags: '-p [::1]:6001:6001', service: { ports: ['[::1]:6001:6001'] }, yaml: '- "[::1]:6001:6001"' },
  { spec: '05-services.md ports', flags: '-p 6060:6060/udp', service: { ports: ['6060:6060/udp'] }, yaml: '- "6060:6060/udp"' },
  {
    spec: '05-services.md ulimits',
    flags: '--ulimit nproc=65535 --ulimit nofile=20000:40000',
    service: { ulimits: { nproc: 65535, nofile: { soft: 20000, hard: 40000 } } },
  },
  { spec: '05-services.md stop_grace_period', flags: '--stop-timeout 90', service: { stop_grace_period: '1m30s' }, yaml: 'stop_grace_period: 1m30s' },
  { spec: '05-services.md gpus', flags: '--gpus all', service: { gpus: 'all' }, yaml: 'gpus: all' },
  { spec: '05-services.md extra_hosts', flags: '--add-host somehost=162.242.195.82', service: { extra_hosts: ['somehost=162.242.195.82'] } },
  {
    spec: '05-services.md healthcheck',
    flags: "--health-cmd 'curl -f http://localhost || exit 1' --health-interval 1m30s",
    service: { healthcheck: { test: 'curl -f http://localhost || exit 1', interval: '1m30s' } },
  },
]

describe('docker-compose', () => {
  // Calls run in process, where they are quicker to test and never wait for a worker thread to start; the worker path has its test below.
  runCallsInProcess()
  after(() => closeWorkerPool())

  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(dockerCompose).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/docker-compose/index.ts')
  })

  test('the Compose Specification’s examples, from docker run and back', async () => {
    for (const { spec, flags, service, yaml } of VECTORS) {
      const command = `docker run ${flags} busybox`
      const answer = await toCompose(command)
      assert.deepEqual(answer.service, { image: 'busybox', ...service }, spec)
      if (yaml) assert.ok((answer.result as string).includes(yaml), `${spec}: ${answer.result}`)
      await composeDocument(command)
      const back = await toRun(answer.result as string, { multiline: false })
      assert.deepEqual(wordsOf(back.result as string), wordsOf(command), spec)
    }
  })

  test('12-interpolation.md: a literal $ is $$ in Compose, a variable is ${VAR}', async () => {
    assert.deepEqual((await serviceOf("docker run busybox echo '$VAR_NOT_INTERPOLATED_BY_COMPOSE'")).command, ['echo', '$$VAR_NOT_INTERPOLATED_BY_COMPOSE'])
    const back = await toRun('services:\n  a:\n    image: busybox\n    command: "$$VAR_NOT_INTERPOLATED_BY_COMPOSE"\n', { multiline: false })
    assert.equal(back.result, "docker run busybox '$VAR_NOT_INTERPOLATED_BY_COMPOSE'")
    assert.deepEqual(back.warnings, [])
    const service = await serviceOf('docker run -e HOME_DIR=$HOME -e "B=${USER:-nobody}" -e C=\\$5 -e D="a\\$b" -e \'E=$x\' busybox')
    assert.deepEqual(service.environment, { HOME_DIR: '${HOME}', B: '${USER:-nobody}', C: '$$5', D: 'a$$b', E: '$$x' })
    const variables = await toRun('services:\n  a:\n    image: busybox\n    environment:\n      A: ${HOME}/x\n      B: $$HOME\n', { multiline: false })
    assert.equal(variables.result, 'docker run -e "A=${HOME}/x" -e \'B=$HOME\' busybox')
    assert.match((variables.warnings as string[])[0], /\$\{HOME\} is left in double quotes for your shell/)
  })

  test('healthcheck forms: exec form written as a shell command with a warning, NONE and disable', async () => {
    const exec = await toRun('services:\n  a:\n    image: i\n    healthcheck:\n      test: ["CMD", "curl", "-f", "http://localhost"]\n      retries: 3\n', {
      multiline: false,
    })
    assert.equal(exec.result, "docker run --health-cmd 'curl -f http://localhost' --health-retries 3 i")
    assert.match((exec.warnings as string[])[0], /exec-form/)
    const shell = await toRun('services:\n  a:\n    image: i\n    healthcheck:\n      test: ["CMD-SHELL", "curl -f http://localhost || exit 1"]\n', {
      multiline: false,
    })
    assert.equal(shell.result, "docker run --health-cmd 'curl -f http://localhost || exit 1' i")
    for (const healthcheck of ['test: ["NONE"]', 'disable: true']) {
      assert.equal(
        (await toRun(`services:\n  a:\n    image: i\n    healthcheck:\n      ${healthcheck}\n`, { multiline: false })).result,
        'docker run --no-healthcheck i',
      )
    }
    assert.deepEqual((await serviceOf('docker run --no-healthcheck i')).healthcheck, { disable: true })
  })

  test('every flag of the table, and the Compose file it makes passes the Compose schema', async () => {
    const command = [
      'docker container run -it --name My_App --expose 80 -e A -e B= --env-file .env -v /srv:/srv:ro -v cache:/cache -v /anonymous',
      '--mount type=bind,src=/etc/x,dst=/x,readonly,bind-propagation=rshared --mount type=volume,source=db,target=/db,volume-nocopy',
      '--mount type=tmpfs,target=/t,tmpfs-size=1000000,tmpfs-mode=1770 --tmpfs /run:size=64m --volumes-from other',
      '--network front --network-alias web --ip 10.0.0.2 --ip6 fd00::2 --restart on-failure:3 --entrypoint /init',
      '-w /app -u 1000:1000 -h box --domainname example.com --add-host h:1.2.3.4 --dns 1.1.1.1 --dns-search example.com --dns-option ndots:2',
      '--mac-address 02:42:ac:11:00:02 --cap-add NET_ADMIN --cap-drop ALL --privileged --security-opt no-new-privileges --device /dev/fuse',
      "--device-cgroup-rule 'c 1:3 mr' --gpus '\"device=0,1\"' --sysctl net.core.somaxconn=1024 -m 512m --memory-reservation 256m --memory-swap 1g",
      '--memory-swappiness 10 --cpus 1.5 --cpu-shares 512 --cpuset-cpus 0-1 --pids-limit 100 --shm-size 64m --oom-kill-disable --oom-score-adj -500',
      '--blkio-weight 300 -l tier=web --label-file labels --annotation a=b --log-driver json-file --log-opt max-size=10m',
      '--health-cmd true --health-interval 5s --health-timeout 2s --health-retries 3 --health-start-period 1m --health-start-interval 1s',
      '--stop-signal SIGTERM --stop-timeout 3600 --init --read-only --platform linux/amd64 --pull always --pid host --ipc private --uts host',
      '--userns host --cgroupns private --cgroup-parent /p --group-add audio --runtime runc --isolation default --storage-opt size=1G --link db:db',
      '--blkio-weight-device /dev/sda:200 --device-read-bps /dev/sda:1mb --device-write-iops /dev/sda:1000 --link-local-ip 169.254.1.1',
      '--cpu-count 2 --cpu-percent 50 --use-api-socket --cpu-period 100000 --cpu-quota 50000 --rm -d -a stdout --sig-proxy=false --cidfile /tmp/id --detach-keys ctrl-x -q --disable-content-trust -P',
      'registry.example.com:5000/team/my.app:1.0@sha256:0123 run --flag "two words"',
    ].join(' \\\n  ')
    const answer = await toCompose(command)
    const service = answer.service as Data
    const document = await composeDocument(command)
    assert.deepEqual(Object.keys(document.services as Data), ['my_app'])
    assert.deepEqual(document.volumes, { cache: { name: 'cache' }, db: { name: 'db' } })
    assert.deepEqual(document.networks, { front: { external: true } })
    assert.deepEqual(service.networks, { front: { aliases: ['web'], ipv4_address: '10.0.0.2', ipv6_address: 'fd00::2', link_local_ips: ['169.254.1.1'] } })
    assert.deepEqual(service.environment, { A: null, B: '' })
    assert.deepEqual(service.volumes, [
      '/srv:/srv:ro',
      'cache:/cache',
      '/anonymous',
      { type: 'bind', source: '/etc/x', target: '/x', read_only: true, bind: { propagation: 'rshared' } },
      { type: 'volume', source: 'db', target: '/db', volume: { nocopy: true } },
      { type: 'tmpfs', target: '/t', tmpfs: { size: 1000000, mode: 0o1770 } },
    ])
    assert.deepEqual(service.gpus, [{ device_ids: ['0', '1'] }])
    assert.deepEqual(service.entrypoint, ['/init'])
    assert.deepEqual(service.command, ['run', '--flag', 'two words'])
    assert.equal(service.stop_grace_period, '1h')
    assert.deepEqual(service.blkio_config, {
      weight: 300,
      weight_device: [{ path: '/dev/sda', weight: 200 }],
      device_read_bps: [{ path: '/dev/sda', rate: '1mb' }],
      device_write_iops: [{ path: '/dev/sda', rate: 1000 }],
    })
    assert.deepEqual(service.logging, { driver: 'json-file', options: { 'max-size': '10m' } })
    assert.equal(service.oom_score_adj, -500)
    assert.equal(service.cpus, 1.5)
    assert.deepEqual(
      (answer.ignored as Array<{ flag: string }>).map(({ flag }) => flag),
      ['--rm', '-d', '-a', '--sig-proxy', '--cidfile', '--detach-keys', '-q', '--disable-content-trust', '-P'],
    )
    // And back: the same service again, with setup for nothing (the network is external, volumes are made by docker run).
    const back = await toRun(answer.result as string)
    assert.deepEqual(await serviceOf(back.result as string), service)
    assert.deepEqual(back.setup, ['docker volume create cache', 'docker volume create db'])
  })

  test('service names: serviceName, else --name, else the image; projectName becomes the top-level name', async () => {
    assert.deepEqual(Object.keys((await composeDocument('docker run ghcr.io/acme/Web.App:2')).services as Data), ['web-app'])
    assert.deepEqual(Object.keys((await composeDocument('docker run --name api x', { serviceName: 'svc' })).services as Data), ['svc'])
    assert.equal((await composeDocument('docker run x', { projectName: 'shop' })).name, 'shop')
    assert.equal((await toCompose('docker run x', { indent: 4 })).result, 'services:\n    x:\n        image: x\n')
  })

  test('composeToRun: long port and volume syntax, networks, setup and ignored keys', async () => {
    const compose = [
      'name: p',
      'services:',
      '  web:',
      '    image: nginx',
      '    build: .',
      '    deploy: {replicas: 2}',
      '    x-note: hi',
      '    ports:',
      '      - {target: 80, published: 8080, host_ip: "::1", protocol: tcp}',
      '      - 443',
      '    volumes:',
      '      - {type: volume, source: data, target: /d, read_only: true}',
      '      - data:/e',
      '    networks:',
      '      front: {aliases: [w]}',
      '      back:',
      '    env_file: [{path: a.env}]',
      '    extra_hosts: {somehost: "162.242.195.82"}',
      '    stop_grace_period: 1500ms',
      '  db:',
      '    image: postgres',
      'volumes:',
      '  data: {name: real-data, driver: local}',
      'networks:',
      '  front: {external: true}',
      '  back: {name: p_back}',
    ].join('\n')
    const answer = await toRun(compose, { service: 'web', multiline: false })
    assert.equal(
      answer.result,
      "docker run -p '[::1]:8080:80/tcp' -p 443 --mount type=volume,source=real-data,target=/d,readonly -v real-data:/e --network front --network-alias w --network p_back --env-file a.env --add-host somehost=162.242.195.82 --stop-timeout 2 nginx",
    )
    assert.deepEqual(answer.setup, ['docker network create p_back', 'docker volume create --driver local real-data'])
    assert.deepEqual(
      (answer.ignored as Array<{ key: string }>).map(({ key }) => key),
      ['build', 'deploy', 'x-note'],
    )
    assert.match((answer.warnings as string[])[0], /rounded up to 2 whole seconds/)
    const odd = await toRun('services:\n  a:\n    image: x\n    constructor: 1\n    __proto__: 2\n    blkio_config: {toString: 1}\n', { multiline: false })
    assert.equal(odd.result, 'docker run x')
    for (const { reason } of odd.ignored as Array<{ reason: unknown }>) assert.equal(typeof reason, 'string')
    assert.deepEqual(
      (odd.ignored as Array<{ key: string }>).map(({ key }) => key),
      ['constructor', '__proto__', 'blkio_config.toString'],
    )
  })

  test('refuses what it cannot process, saying where, never echoing a value', async () => {
    const at = (command: string, part: string) => (part === '' ? command.length : command.indexOf(part))
    const cases: Array<[string, string, RegExp]> = [
      ['docker run x; rm -rf /', ';', /shell operator ;/],
      ['docker run x | tee log', '|', /shell operator \|/],
      ['docker run x && echo ok', '&', /shell operator &/],
      ['docker run x > out', '>', /shell operator >/],
      ['docker run -e A=$(cat secret) x', '$(', /command substitution/],
      ['docker run -e A=`cat secret` x', '`', /command substitution/],
      ['docker run -e A="$(cat secret)" x', '$(', /command substitution/],
      ['docker run x\ndocker run y', 'docker run y', /second command/],
      ['docker run -d', '', /names no image/],
      ['docker run --frobnicate x', '--frobnicate', /--frobnicate .*not a docker run flag/],
      ['docker run -itZ x', '-itZ', /-Z/],
      ['docker ps', 'ps', /not docker run/],
      ['podman run x', 'podman', /docker run command/],
      ["docker run 'x", "'", /single quote is not closed/],
      ['docker run "x', '"', /double quote is not closed/],
      ['docker run -e A=${B x', '${', /\$\{ is not closed/],
      ['docker run -e A=${#B} x', '${', /no Compose interpolation/],
      ['docker run -e A=$1 x', '$1', /\$1 has no Compose form/],
      ['docker run --name', '--name', /needs a value/],
      ['docker run --name a x', '--name', /container name Docker accepts/],
      ['docker run --cpuset-mems 0 x', '--cpuset-mems', /--cpuset-mems .*has no Compose form/],
      ['docker run --mount type=bind,target=/x,readonly=constructor x', '--mount', /readonly option of --mount takes true or false/],
    ]
    for (const [input, part, message] of cases) {
      await expectRefusal(toCompose(input), { code: 'INVALID_INPUT', message, position: at(input, part) })
    }
    const secret = 'hunter2-s3cr3t'
    for (const command of [
      `docker run --cpus ${secret} x`,
      `docker run --restart ${secret} x`,
      `docker run --ulimit ${secret} x`,
      `docker run --health-interval ${secret} x`,
      `docker run --stop-timeout ${secret} x`,
      `docker run --mount type=bind,${secret}=1,target=/x x`.replace(secret, secret.slice(0, 7)),
      `docker run -e =${secret} x`,
      `docker run --ip ${secret} x`,
    ]) {
      await expectRefusal(toCompose(command), {
        code: 'INVALID_INPUT',
        check: (error) => !error.message.includes(secret) && !JSON.stringify(error.details).includes(secret),
      })
    }
  })

  test('composeToRun refuses a bad Compose file, naming the line, the path or the services', async () => {
    await expectRefusal(toRun('services:\n  a:\n    image: x\n    image: y\n'), { code: 'INVALID_INPUT', details: { line: 4 } })
    for (const value of ['${} ', 'a${}', '${-x}', '${1}']) {
      await expectRefusal(toRun(`services:\n  a:\n    image: x\n    user: "${value}"\n`), { code: 'INVALID_INPUT', message: /names no variable/ })
    }
    await expectRefusal(toRun(`a: ${'['.repeat(200)}${']'.repeat(200)}\n`), { code: 'LIMIT_EXCEEDED' })
    const laughs = `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n${Array.from(
      { length: 8 },
      (_, i) =>
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(',')}]`,
    ).join('\n')}\nservices: {x: {image: i, command: *i}}\n`
    await expectRefusal(toRun(laughs), { code: 'LIMIT_EXCEEDED' })
    const long = `x: &s ${'a'.repeat(1000)}\nservices:\n  a:\n    image: i\n    command: [${'*s,'.repeat(3000)}*s]\n`
    await expectRefusal(toRun(long), { code: 'LIMIT_EXCEEDED', message: /ARG_MAX/, details: { limit: 2 * 1024 * 1024 } })
    await expectRefusal(toRun('services:\n  a: {image: x}\n  b: {image: y}\n'), {
      code: 'INVALID_INPUT',
      message: /2 services; set service .*: a, b/,
      details: { services: ['a', 'b'] },
    })
    await expectRefusal(toRun('services:\n  a: {image: x}\n', { service: 'nope' }), { code: 'INVALID_INPUT', message: /its services are: a/ })
    await expectRefusal(toRun('version: "3"\n'), { code: 'INVALID_INPUT', details: { path: 'services' } })
    await expectRefusal(toRun(''), { code: 'INVALID_INPUT', details: { path: 'services' } })
    await expectRefusal(toRun('services: {a: {image: x}}\n---\nservices: {b: {image: y}}\n'), { code: 'INVALID_INPUT', message: /2 YAML documents/ })
    await expectRefusal(toRun('services:\n  a: {build: .}\n'), { code: 'INVALID_INPUT', details: { path: 'services.a.image' } })
    await expectRefusal(toRun('services:\n  a: {image: x, ports: [[1]]}\n'), { code: 'INVALID_INPUT', details: { path: 'services.a.ports[0]' } })
    await expectRefusal(toRun('services:\n  a: {image: x, stop_grace_period: soon}\n'), {
      code: 'INVALID_INPUT',
      details: { path: 'services.a.stop_grace_period' },
    })
    await expectRefusal(toRun('services:\n  a: {image: x, privileged: "yes"}\n'), { code: 'INVALID_INPUT', details: { path: 'services.a.privileged' } })
  })

  test('fields of the other action, bad names and oversized input are 400s', async () => {
    await expectRefusal(toCompose('docker run x', { service: 'a' }), { code: 'VALIDATION_ERROR', field: 'service' })
    await expectRefusal(toCompose('docker run x', { multiline: false }), { code: 'VALIDATION_ERROR', field: 'multiline' })
    await expectRefusal(toRun('services: {a: {image: x}}', { projectName: 'p' }), { code: 'VALIDATION_ERROR', field: 'projectName' })
    await expectRefusal(toRun('services: {a: {image: x}}', { serviceName: 's' }), { code: 'VALIDATION_ERROR', field: 'serviceName' })
    await expectRefusal(toRun('services: {a: {image: x}}', { indent: 4 }), { code: 'VALIDATION_ERROR', field: 'indent' })
    await expectRefusal(toCompose('docker run x', { projectName: 'My Project' }), { code: 'VALIDATION_ERROR', field: 'projectName' })
    await expectRefusal(toCompose('docker run x', { serviceName: '-x' }), { code: 'VALIDATION_ERROR', field: 'serviceName' })
    await expectRefusal(toCompose(`docker run ${'x'.repeat(65_536)}`), { code: 'VALIDATION_ERROR', field: 'input' })
  })

  test('hostile: 10,000 flags in one command are read in one linear pass, the output bounded', async () => {
    const env = `docker run ${'-e A '.repeat(10_000)}x`
    assert.deepEqual((await serviceOf(env)).environment, { A: null })
    const labels = `docker run ${Array.from({ length: 10_000 }, (_, index) => `-l${index.toString(36)} `).join('')}x`
    const answer = await toCompose(labels)
    assert.equal(Object.keys((answer.service as Data).labels as Data).length, 10_000)
    assert.ok((answer.result as string).length < 20 * labels.length)
    const ports = `docker run ${Array.from({ length: 10_000 }, (_, index) => `-p${index.toString(36)} `).join('')}x`
    assert.equal(((await serviceOf(ports)).ports as string[]).length, 10_000)
    const some = await toCompose(`docker run ${'-p 1 -p 2 '.repeat(1500)}x`)
    assert.deepEqual((some.service as Data).ports, ['1', '2'])
    const back = await toRun(
      (await toCompose(`docker run ${Array.from({ length: 3000 }, (_, index) => `-l${index.toString(36)} `).join('')}x`)).result as string,
    )
    assert.ok((back.result as string).length < 40 * 3000)
    await expectRefusal(toCompose(`docker run -e A=${'${'.repeat(20_000)} x`), { code: 'INVALID_INPUT' })
    assert.equal(((await serviceOf(`docker run x ${"'' ".repeat(20_000)}`)).command as string[]).length, 20_000)
  })

  test('property: shellQuote and shellWords are inverses, and Compose values survive the shell', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 12 }), { maxLength: 8 }), (words) => {
        const printable = words.map((word) => word.replace(/[\0\r]/g, ''))
        assert.deepEqual(
          shellWords(printable.map(shellQuote).join(' '), 'literal').map((word) => word.text),
          printable,
        )
      }),
    )
    const composeValue = fc
      .array(
        fc.oneof(
          fc.string({ maxLength: 6 }).map((text) => text.replace(/[$\0\r]/g, '')),
          fc.constant('$$'),
          fc.constantFrom('${HOME}', '${A:-x y}', '${B?need}'),
        ),
        { maxLength: 6 },
      )
      .map((parts) => parts.join(''))
    fc.assert(
      fc.property(composeValue, (value) => {
        const [word] = shellWords(`${composeValueToShell(value).word} `, 'compose')
        assert.equal(word?.text ?? '', value)
      }),
    )
  })

  test('property: runToCompose then composeToRun gives the same command, flags modulo order', async () => {
    const value = fc.oneof(
      fc.stringMatching(/^[a-z0-9./:-]{1,12}$/),
      fc.string({ minLength: 1, maxLength: 10 }).map((text) => text.replace(/[\0\r\n=]/g, '') || 'v'),
      fc.constant('${HOME}/x'),
      fc.constant("it's $5"),
    )
    const key = fc.stringMatching(/^[A-Z][A-Z0-9_]{0,6}$/)
    const scalar = fc.record(
      {
        '--name': fc.stringMatching(/^[a-z][a-z0-9_-]{1,10}$/),
        '--restart': fc.constantFrom('no', 'always', 'unless-stopped', 'on-failure:3'),
        '-w': value,
        '-u': value,
        '-h': value,
        '--cpus': fc.constantFrom('0.5', '1.5', '2'),
        '--pids-limit': fc.integer({ min: -1, max: 5000 }).map(String),
        '--stop-timeout': fc.integer({ min: 0, max: 100_000 }).map(String),
        '--health-cmd': value,
        '--health-interval': fc.constantFrom('10s', '1m30s', '500ms'),
        '--entrypoint': value,
        '--network': fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/),
        '--gpus': fc.constant('all'),
        '--ulimit': fc.constantFrom('nofile=1:2', 'nproc=65535'),
        '--log-driver': fc.constantFrom('json-file', 'local'),
      },
      { requiredKeys: [] },
    )
    const booleans = fc.subarray(['-i', '-t', '--privileged', '--init', '--read-only', '--oom-kill-disable'])
    const lists = fc.uniqueArray(
      fc.oneof(
        fc.tuple(fc.constantFrom('-p', '--expose', '--dns', '--cap-add', '--device', '--tmpfs', '--add-host'), value),
        fc.tuple(fc.constant('-v'), fc.constantFrom('/a:/b', 'data:/data:ro', '/anonymous')),
      ),
      { maxLength: 6, selector: ([flag, item]) => `${flag} ${item}` },
    )
    const maps = fc.uniqueArray(fc.tuple(fc.constantFrom('-e', '-l', '--sysctl', '--log-opt'), key, fc.option(value, { nil: undefined })), {
      selector: ([flag, name]) => `${flag} ${name}`,
      maxLength: 6,
    })
    const args = fc.array(value, { maxLength: 3 })
    const commands = fc.tuple(scalar, booleans, lists, maps, args).map(([scalars, flags, listed, mapped, rest]) => {
      const words: string[][] = [
        ...Object.entries(scalars).map(([flag, item]) => [flag, item]),
        ...flags.map((flag) => [flag]),
        ...listed,
        ...mapped.map(([flag, name, item]) => [flag, item === undefined && flag === '-e' ? name : `${name}=${item ?? ''}`]),
      ]
      return { words, rest }
    })
    // Each $ written $$, as Compose reads a literal one, but for the variable ${HOME}.
    const quote = (word: string) => composeValueToShell(word.replaceAll('$', () => '$$').replace('$${HOME}', () => '${HOME}')).word
    await fc.assert(
      fc.asyncProperty(commands, async ({ words, rest }) => {
        const command = ['docker run', ...words.map((parts) => parts.map(quote).join(' ')), 'busybox', ...rest.map(quote)].join(' ')
        const compose = await toCompose(command)
        assertValidCompose(parseYaml(compose.result as string), command)
        const back = (await toRun(compose.result as string)).result as string
        const pairs = (text: string) => {
          const all = wordsOf(text)
          const image = all.length - 1 - rest.length
          const found: string[] = []
          for (let index = 2; index < image; index++) {
            const word = all[index]
            const takesValue = !['-i', '-t', '--privileged', '--init', '--read-only', '--oom-kill-disable'].includes(word)
            found.push(takesValue ? `${word} ${all[++index]}` : word)
          }
          return { flags: found.sort(), tail: all.slice(image) }
        }
        const expected = pairs(command)
        const actual = pairs(back)
        assert.deepEqual(actual.tail, expected.tail, back)
        assert.deepEqual(actual.flags, expected.flags, back)
        assert.deepEqual(await serviceOf(back), compose.service, back)
      }),
      { numRuns: 80 },
    )
  })

  test('a large Compose file runs on a worker thread, with the same answer', async () => {
    const compose = `services:\n  a:\n    image: i\n    command: [${Array.from({ length: 400 }, (_, index) => `"arg ${index}"`).join(', ')}]\n`
    const inProcess = await toRun(compose)
    setOffloadPolicy('always')
    try {
      assert.deepEqual(await execute(dockerCompose, { input: compose, action: 'composeToRun' }, { timeBudgetMs: 60_000 }), inProcess)
    } finally {
      setOffloadPolicy('never')
    }
  })

  test('secondsToDuration writes the Compose duration of a number of seconds', () => {
    assert.equal(secondsToDuration(0), '0s')
    assert.equal(secondsToDuration(90), '1m30s')
    assert.equal(secondsToDuration(3600), '1h')
    assert.equal(secondsToDuration(3661), '1h1m1s')
  })
})
