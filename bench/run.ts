/**
 * `npm run bench [-- --quick] [-- --only a,b] [-- --rounds n] [-- --duties a,b] [-- --profile name]`: the service against Fastify
 * alone and a bare node:http baseline, loaded from a separate process, and the A/B of each duty the
 * service does with its own code against the Fastify plugin for it. Prints Markdown; exits non-zero
 * only when something is broken (a server that does not start, a wrong answer, a response that is
 * not 2xx), never for a missed target, since timings vary from machine to machine.
 */

import { deepStrictEqual } from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { operationLoaders } from '../src/operations/registry.ts'
import { ROOT } from '../test/processes.ts'
import { DUTIES, DUTY_NAMES, DUTY_VARIABLE, type Duty, type Variant } from './duties.ts'
import { type Load, LoadGenerator, type LoadResult } from './load.ts'
import { Bench, closed, type Loader, type Measurement, median, type Plan, paced } from './measure.ts'
import { nowUs, summarizeProfiles } from './profile.ts'
import { bundleReferenceServers, REFERENCE_SOURCES, type ReferenceServers } from './reference-servers.ts'
import { BENCH_RATE_LIMIT_MAX, type Server, startServer } from './servers.ts'
import { buildWithStandIns } from './stand-ins.ts'
import { type CommandRun, timeCommand, timeMcpInitialize, timeServerReady } from './startup.ts'
import {
  bodyBytes,
  csvOfBodySize,
  decimalDigits,
  KiB,
  MiB,
  post,
  type RequestSpec,
  SMALL,
  textOfBodySize,
  yamlMap,
  yamlOfBodySize,
  yamlRecords,
} from './workloads.ts'
import { WrkLoader, wrkInstalled } from './wrk.ts'

const SECTIONS = ['startup', 'small', 'saturation', 'duties', 'large', 'convert', 'isolation', 'scaling', 'growth'] as const
type Section = (typeof SECTIONS)[number]

const { values: options } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    profile: { type: 'string' },
    rounds: { type: 'string' },
    duties: { type: 'string' },
  },
  strict: true,
})
const only = new Set((options.only?.split(',') ?? SECTIONS) as Section[])
for (const section of only) if (!SECTIONS.includes(section)) throw new Error(`--only takes ${SECTIONS.join(', ')}, not '${section}'`)

/** `--rounds n`: more alternated rounds than the plan's, where a difference is small for the machine's noise. */
/** `--quick`: every section once, briefly, so that the bench cannot rot (CI runs it); its figures mean little. */
const QUICK_PLAN: Plan = { warmupSeconds: 0.2, rounds: 1, secondsPerRound: 0.5 }
const ROUNDS = options.rounds === undefined ? undefined : Number(options.rounds)
if (ROUNDS !== undefined && !(Number.isSafeInteger(ROUNDS) && ROUNDS > 0)) throw new Error(`--rounds takes a whole number of rounds, not '${options.rounds}'`)
const PLAN: Plan = options.quick ? QUICK_PLAN : { warmupSeconds: 2, rounds: ROUNDS ?? 4, secondsPerRound: 5 }
const CORES = availableParallelism()
const SMALL_CONNECTIONS = 10
/** Small requests at the same offered load for both servers: no batching of work under saturation favours either. */
const STEADY_RATE = 1000
/** The saturating load: wrk with one thread and this many connections, as the target is measured. */
const SATURATION_CONNECTIONS = 32
/** The bar for a small request's server CPU against Fastify alone's, with the production stack on. */
const CPU_BAR = 1.8
/** The A/B of each duty: short rounds, many of them, since the differences sought are a few percent. */
const DUTY_PLAN: Plan = options.quick ? QUICK_PLAN : { warmupSeconds: 1, rounds: ROUNDS ?? 12, secondsPerRound: 2 }
/** `--duties a,b`: the duties A/B'd (all of them unless told). */
const SELECTED_DUTIES = (options.duties?.split(',') ?? DUTY_NAMES) as Duty[]
for (const duty of SELECTED_DUTIES) if (!DUTY_NAMES.includes(duty)) throw new Error(`--duties takes ${DUTY_NAMES.join(', ')}, not '${duty}'`)
/** A duty is left to its Fastify plugin unless the plugin costs more than this share of the service's CPU per small request. */
const PLUGIN_COST_BAR = 0.05
const LARGE_CONNECTIONS = 4
const CONVERT_CONNECTIONS = 2
/** The isolation target's absolute alternative: a p99 this low beside heavy work is met whatever the ratio. */
const ISOLATION_P99_CEILING_MS = 25
/** The isolation probe: small requests at a steady rate, low enough that alone they never queue. */
const PROBE = { perSecond: 200, connections: 4 }

const LARGE = {
  sha256_64k: textOfBodySize('hash', 64 * KiB),
  sha256_1m: textOfBodySize('hash', MiB),
  base64_1m: textOfBodySize('base64', MiB),
}
const CONVERT = { csv: csvOfBodySize(256 * KiB), yaml: yamlOfBodySize(256 * KiB) }
/** The yaml-json throughput target: the 1 MiB YAML read into JSON, and its data, sent as JSON, written back as YAML. */
const YAML_1M = yamlOfBodySize(MiB)
const YAML_1M_BACK = post('yaml-json', { input: yamlRecords(YAML_1M), action: 'jsonToYaml' })
const YAML_TARGETS = { readMBps: 8, writeMBps: 6 }
const GROWTH_SIZES = [16 * KiB, 64 * KiB, 256 * KiB, MiB]
const BASE_CONVERT_DIGITS = [1000, 5000, 10_000]
const YAML_MAP_KEYS = 40_000

// ---------------------------------------------------------------- formatting

const out = (line = '') => process.stdout.write(`${line}\n`)
const progress = (line: string) => process.stderr.write(`… ${(performance.now() / 1000).toFixed(0)} s: ${line}\n`)

function table(headers: string[], rows: string[][]) {
  out(`| ${headers.join(' | ')} |`)
  out(`|${headers.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`)
  for (const row of rows) out(`| ${row.join(' | ')} |`)
  out()
}

const count = (n: number) => Math.round(n).toLocaleString('en-US')
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0))
const us = (seconds: number) => (seconds * 1e6 < 100 ? (seconds * 1e6).toFixed(1) : count(seconds * 1e6))
const times = (ratio: number) => `${ratio.toFixed(2)}×`
const size = (bytes: number) =>
  bytes >= MiB ? `${(bytes / MiB).toFixed(bytes % MiB === 0 ? 0 : 2)} MiB` : `${(bytes / KiB).toFixed(bytes % KiB === 0 ? 0 : 1)} KiB`
const mbps = (bytes: number, perSecond: number) => `${((bytes * perSecond) / 1e6).toFixed(1)} MB/s`
const percentOfCores = (cpuSeconds: number, seconds: number) => `${((cpuSeconds / (seconds * CORES)) * 100).toFixed(0)} %`

/** The spread of a ratio over the rounds: a wide range says the machine was noisy. */
function ratioRange(numerators: number[], denominators: number[]) {
  const ratios = numerators.map((value, i) => value / denominators[i])
  return ratios.length < 2 ? '' : ` (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`
}

interface Target {
  name: string
  bar: string
  measured: string
  met: boolean
}
const targets: Target[] = []
const target = (name: string, bar: string, measured: string, met: boolean) => targets.push({ name, bar, measured, met })

// ---------------------------------------------------------------- sections

interface Servers {
  service: Server
  baseline: Server
  fastify: Server
  serviceWarn: Server
  serviceTwoWorkers: Server
}

/** What the production configuration is in the bench: a log line per request, the rate limiter counting every one. */
const PRODUCTION = { LOG_LEVEL: 'info', RATE_LIMIT_MAX: String(BENCH_RATE_LIMIT_MAX) }
const MB = 1e6
const megabytes = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`

/** The size of registry the start-up targets must also hold at. */
const LARGE_REGISTRY = 115

/** The start-up measurements of one build, `repeats` runs each. */
interface StartupRuns {
  ready: number[]
  cli: CommandRun[]
  mcp: number[]
}

/**
 * The service's start against the bundled reference servers' in the same runs, since what a start
 * costs moves with the machine: Fastify alone with one route, and bare node:http, until GET /health
 * answers.
 */
async function startup(bench: Bench, logDir: string, references: ReferenceServers) {
  progress('start-up and footprint')
  const repeats = options.quick ? 1 : 10
  const registered = Object.keys(operationLoaders).length
  const largeRegistry = await buildWithStandIns(join(logDir, 'large-registry'), LARGE_REGISTRY - registered)
  const builds = { service: emptyRuns(), large: emptyRuns() }
  const referenceReady = { fastify: [] as number[], bare: [] as number[] }
  for (let i = 0; i < repeats; i++) {
    for (const [runs, root] of [
      [builds.service, ROOT],
      [builds.large, largeRegistry],
    ] as const) {
      runs.ready.push(await timeServerReady(root))
      runs.cli.push(await timeCommand(['base64', '--input', 'hi'], 'aGk=\n', root))
      runs.mcp.push(await timeMcpInitialize(root))
    }
    for (const name of ['fastify', 'bare'] as const) referenceReady[name].push(await timeServerReady(ROOT, references[name], '/health'))
  }
  const server = await startServer({ label: 'service (footprint)', script: 'dist/server.js', env: PRODUCTION, logDir })
  let idle: number
  let loaded: number
  try {
    idle = server.rssBytes()
    await bench.run(server, { kind: 'closed', requests: [SMALL.base64], connections: SMALL_CONNECTIONS, amount: 10_000, seconds: 600 }, '10,000 small requests')
    await bench.run(
      server,
      { kind: 'closed', requests: [CONVERT.csv, CONVERT.yaml], connections: CONVERT_CONNECTIONS, amount: 20, seconds: 600 },
      '20 conversions of 256 KiB',
    )
    await server.untilIdle()
    loaded = server.rssBytes()
  } finally {
    await server.stop()
  }
  const spread = (values: number[]) => `${ms(median(values))} (${ms(Math.min(...values))}–${ms(Math.max(...values))})`
  const both = (measure: (runs: StartupRuns) => string) => [measure(builds.service), measure(builds.large)]
  out(`### Start-up and footprint (the build, plain node; ${repeats} runs each, median and range)`)
  out()
  out(
    `The second column is the same build with ${LARGE_REGISTRY - registered} stand-in operations registered beside the ${registered} (bench/stand-ins.ts), ${LARGE_REGISTRY} in all; the two builds alternate.`,
  )
  out()
  table(
    ['what', `the service (${registered} operations)`, `${LARGE_REGISTRY} operations`],
    [
      ["`npm start`'s command (`node dist/server.js`) until GET /ready answers 200, ms", ...both((runs) => spread(runs.ready))],
      ['one-shot `devutils base64 --input hi`, wall ms', ...both((runs) => spread(runs.cli.map((run) => run.wallMs)))],
      ['one-shot `devutils base64 --input hi`, peak RSS', ...both((runs) => megabytes(median(runs.cli.map((run) => run.peakRssBytes))))],
      ['`devutils mcp` until its answer to initialize, ms', ...both((runs) => spread(runs.mcp))],
      ['for reference: Fastify alone, one route (bench/fastify-server.ts, bundled), until GET /health answers 200, ms', spread(referenceReady.fastify), ''],
      ['for reference: bare node:http (bench/baseline-server.ts, bundled), until GET /health answers 200, ms', spread(referenceReady.bare), ''],
      ['idle server (settled, worker thread started), RSS of its processes', megabytes(idle), ''],
      ['the same server after 10,000 small requests and 20 conversions of 256 KiB, RSS', megabytes(loaded), ''],
    ],
  )
  for (const [runs, registry] of [
    [builds.service, ''],
    [builds.large, `, ${LARGE_REGISTRY} operations`],
  ] as const) {
    const ready = median(runs.ready)
    const cliWall = median(runs.cli.map((run) => run.wallMs))
    const cliRss = median(runs.cli.map((run) => run.peakRssBytes))
    const mcp = median(runs.mcp)
    const reference = `Fastify alone ${ms(median(referenceReady.fastify))} ms, node:http ${ms(median(referenceReady.bare))} ms`
    target(`server start until /ready${registry}`, '≤ 250 ms', `${ms(ready)} ms (${reference})`, ready <= 250)
    target(`one-shot CLI call${registry}`, '≤ 100 ms, ≤ 70 MB', `${ms(cliWall)} ms, ${megabytes(cliRss)}`, cliWall <= 100 && cliRss <= 70 * MB)
    target(`\`devutils mcp\` until it answers initialize${registry}`, '≤ 300 ms', `${ms(mcp)} ms`, mcp <= 300)
  }
  target('idle server memory', '≤ 120 MB RSS', megabytes(idle), idle <= 120 * MB)
  target('server memory after sustained mixed load', '≤ 200 MB RSS', megabytes(loaded), loaded <= 200 * MB)
}

const emptyRuns = (): StartupRuns => ({ ready: [], cli: [], mcp: [] })

async function small(bench: Bench, { service, serviceWarn, fastify, baseline }: Servers) {
  progress('small requests')
  const [info, warn, framework, bare] = await bench.compare(
    'small base64',
    [service, serviceWarn, fastify, baseline],
    closed([SMALL.base64], SMALL_CONNECTIONS),
  )
  const [steadyInfo, steadyFramework, steadyBare] = await bench.compare(
    'small base64, steady rate',
    [service, fastify, baseline],
    paced([SMALL.base64], SMALL_CONNECTIONS, STEADY_RATE),
  )
  const others: Array<[string, Measurement]> = []
  for (const [name, request] of [
    ['uuid', SMALL.uuid],
    ['base-convert', SMALL.baseConvert],
    ['catalogue (GET /api/v1)', SMALL.catalogue],
  ] as const) {
    const [measurement] = await bench.compare(name, [service], closed([request], SMALL_CONNECTIONS))
    others.push([name, measurement])
  }
  out(`### Small requests (${SMALL_CONNECTIONS} connections)`)
  out()
  const row = (name: string, m: Measurement, framework: Measurement, bare: Measurement) => [
    name,
    count(m.perSecond),
    ms(m.latency('p50')),
    ms(m.latency('p99')),
    us(m.cpuPerRequest),
    times(m.cpuPerRequest / framework.cpuPerRequest),
    times(m.cpuPerRequest / bare.cpuPerRequest),
  ]
  table(
    ['workload', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'CPU × Fastify alone base64, same load', 'CPU × bare base64, same load'],
    [
      row('base64, service (LOG_LEVEL=info), closed loop', info, framework, bare),
      row('base64, service with LOG_LEVEL=warn (for information), closed loop', warn, framework, bare),
      row('base64, Fastify alone, closed loop', framework, framework, bare),
      row('base64, bare node:http (for information), closed loop', bare, framework, bare),
      row(`base64, service (LOG_LEVEL=info), steady ${count(STEADY_RATE)} req/s`, steadyInfo, steadyFramework, steadyBare),
      row(`base64, Fastify alone, steady ${count(STEADY_RATE)} req/s`, steadyFramework, steadyFramework, steadyBare),
      row(`base64, bare node:http (for information), steady ${count(STEADY_RATE)} req/s`, steadyBare, steadyFramework, steadyBare),
      ...others.map(([name, m]) => row(`${name}, service, closed loop`, m, framework, bare)),
    ],
  )
  const cpuTarget = (load: string, mine: Measurement, framework: Measurement, bare: Measurement, extra = '') => {
    const ratio = mine.cpuPerRequest / framework.cpuPerRequest
    target(
      `server CPU per small request, ${load}`,
      `≤ ${CPU_BAR}× Fastify alone`,
      `${times(ratio)}${ratioRange(mine.cpuPerResponse, framework.cpuPerResponse)}${extra}; × bare node:http: ${times(mine.cpuPerRequest / bare.cpuPerRequest)}`,
      ratio <= CPU_BAR,
    )
  }
  cpuTarget('closed loop', info, framework, bare, `; ${times(warn.cpuPerRequest / framework.cpuPerRequest)} with LOG_LEVEL=warn`)
  cpuTarget(`steady ${count(STEADY_RATE)} req/s`, steadyInfo, steadyFramework, steadyBare)
}

/** wrk where it is installed, else the node load generator's closed loop; and how the tables name it. */
function saturatingLoader(): { wrk: WrkLoader | undefined; client: string } {
  const wrk = wrkInstalled() ? new WrkLoader() : undefined
  const client = wrk ? `wrk -t1 -c${SATURATION_CONNECTIONS}` : `the node load generator, ${SATURATION_CONNECTIONS} connections (wrk is not installed)`
  return { wrk, client }
}

/**
 * Small requests at saturation, as the target measures them: wrk (one thread, 32 connections,
 * a separate C process) keeps the server busy, and the server's CPU per request is compared with
 * Fastify alone's answering the same request, and the bare server's, in the same run. Without wrk,
 * the node load generator's closed loop with the same connections stands in (a Node client
 * saturates less).
 */
async function saturation(bench: Bench, { service, fastify, baseline }: Servers) {
  progress('saturation')
  const { wrk, client } = saturatingLoader()
  let measurements: Measurement[]
  try {
    measurements = await bench.compare('small base64, saturated', [service, fastify, baseline], closed([SMALL.base64], SATURATION_CONNECTIONS), false, wrk)
  } finally {
    wrk?.close()
  }
  const [mine, framework, bare] = measurements
  out(`### Saturation: small base64, ${client}, closed loop`)
  out()
  table(
    [
      'server',
      'req/s',
      'p50 ms',
      'p99 ms',
      'server CPU µs/req',
      'CPU × Fastify alone',
      'CPU × bare',
      'server CPU, share of the cores',
      'client CPU, share of the cores',
    ],
    [
      ['service (production stack: LOG_LEVEL=info, rate limit, metrics)', mine],
      ['Fastify alone (the same request and envelope, no plugin)', framework],
      ['bare node:http (for information)', bare],
    ].map(([name, m]) => {
      const measurement = m as Measurement
      return [
        name as string,
        count(measurement.perSecond),
        ms(measurement.latency('p50')),
        ms(measurement.latency('p99')),
        us(measurement.cpuPerRequest),
        `${times(measurement.cpuPerRequest / framework.cpuPerRequest)}${ratioRange(measurement.cpuPerResponse, framework.cpuPerResponse)}`,
        `${times(measurement.cpuPerRequest / bare.cpuPerRequest)}${ratioRange(measurement.cpuPerResponse, bare.cpuPerResponse)}`,
        percentOfCores(measurement.serverCpuSeconds, measurement.seconds),
        percentOfCores(measurement.loaderCpuSeconds, measurement.seconds),
      ]
    }),
  )
  const ratio = mine.cpuPerRequest / framework.cpuPerRequest
  target(
    `server CPU per small request at saturation (${wrk ? 'wrk' : 'node client'})`,
    `≤ ${CPU_BAR}× Fastify alone`,
    `${times(ratio)}${ratioRange(mine.cpuPerResponse, framework.cpuPerResponse)}; × bare node:http: ${times(mine.cpuPerRequest / bare.cpuPerRequest)}, Fastify alone × bare: ${times(framework.cpuPerRequest / bare.cpuPerRequest)}`,
    ratio <= CPU_BAR,
  )
}

/** The headers of a response that say what it is, without those that differ from one response to the next. */
const VARYING_HEADERS = new Set(['date', 'x-request-id', 'content-length', 'ratelimit', 'ratelimit-remaining', 'ratelimit-reset'])
function constantHeadersOf(response: Response): Record<string, string> {
  return Object.fromEntries(
    [...response.headers]
      .filter(([name]) => !VARYING_HEADERS.has(name))
      // helmet writes a policy's directives without a space after each semicolon: the same policy.
      .map(([name, value]) => [name, name === 'content-security-policy' ? value.replace(/;\s*/g, '; ') : value])
      .sort(([a], [b]) => a.localeCompare(b)),
  )
}

/** What the two variants of a duty must answer alike: the small POST's status, data and headers. */
async function dutyAnswer(server: Server) {
  const { path, body } = SMALL.base64
  const answer = await fetch(`${server.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', origin: 'https://example.org' } })
  const envelope = (await answer.json()) as { data: unknown }
  return { status: answer.status, data: envelope.data, headers: constantHeadersOf(answer) }
}

/**
 * The A/B of each duty the service does with its own code, against the Fastify plugin for it:
 * Fastify alone with the service's hooks and the duty done by ours, and the same with the duty done
 * by the plugin (bench/duties.ts), in alternated rounds (ours then the plugin, then the plugin then
 * ours) with the service beside them in each round. Each round gives a paired ratio, the plugin's
 * CPU per request over ours; the median ratio, less one, times ours' CPU per request is what the
 * plugin costs more, given as a share of the service's CPU per request.
 */
async function duties(bench: Bench, { service }: Servers, fastifyScript: string, logDir: string) {
  progress('duties')
  const { wrk, client } = saturatingLoader()
  const loader: Loader = wrk ?? bench.loader
  const load = closed([SMALL.base64], SATURATION_CONNECTIONS)
  const rows: string[][] = []
  try {
    for (const duty of SELECTED_DUTIES) {
      progress(`duty: ${duty}`)
      const start = (variant: Variant) =>
        startServer({
          label: `Fastify + ${duty} (${variant})`,
          script: fastifyScript,
          env: { [DUTY_VARIABLE]: `${duty}:${variant}`, RATE_LIMIT_MAX: String(BENCH_RATE_LIMIT_MAX) },
          logDir,
        })
      const ours = await start('ours')
      const plugin = await start('plugin').catch(async (error: Error) => {
        await ours.stop()
        throw error
      })
      try {
        deepStrictEqual(await dutyAnswer(plugin), await dutyAnswer(ours), `${duty}: the plugin does not answer as ours does`)
        const perRound = { ours: [] as number[], plugin: [] as number[], service: [] as number[] }
        const cpu = { ours: 0, plugin: 0, service: 0 }
        const responses = { ours: 0, plugin: 0, service: 0 }
        const servers = { ours, plugin, service }
        for (const name of ['ours', 'plugin', 'service'] as const)
          await bench.run(servers[name], { ...load, seconds: DUTY_PLAN.warmupSeconds }, `${duty} (warm-up)`, loader)
        for (let round = 0; round < DUTY_PLAN.rounds; round++) {
          // Ours and the plugin one after the other, each first in every other round; the service beside them.
          const order = round % 2 === 0 ? (['ours', 'plugin', 'service'] as const) : (['service', 'plugin', 'ours'] as const)
          for (const name of order) {
            const { result, serverCpuSeconds } = await bench.run(servers[name], { ...load, seconds: DUTY_PLAN.secondsPerRound }, `${duty} A/B`, loader)
            perRound[name].push(serverCpuSeconds / Math.max(1, result.ok))
            cpu[name] += serverCpuSeconds
            responses[name] += result.ok
          }
        }
        const perRequest = (name: keyof typeof cpu) => cpu[name] / Math.max(1, responses[name])
        // The paired ratio of each round, and what a ratio means in the service's CPU per request.
        const ratios = perRound.plugin.map((pluginCpu, i) => pluginCpu / perRound.ours[i])
        progress(`${duty}: plugin ÷ ours by round ${ratios.map((ratio) => ratio.toFixed(3)).join(' ')}`)
        const ratio = median(ratios)
        const shareOf = (r: number) => ((r - 1) * perRequest('ours')) / perRequest('service')
        const share = shareOf(ratio)
        const percent = (value: number) => `${(value * 100).toFixed(1)} %`
        rows.push([
          duty,
          DUTIES[duty as Duty].ours,
          DUTIES[duty as Duty].plugin,
          `${us(perRequest('ours'))} / ${us(perRequest('plugin'))} / ${us(perRequest('service'))}`,
          `${times(ratio)}${ratioRange(perRound.plugin, perRound.ours)}`,
          `${((ratio - 1) * perRequest('ours') * 1e6).toFixed(1)}`,
          `${percent(share)}${ratios.length > 1 ? ` (rounds ${percent(shareOf(Math.min(...ratios)))} to ${percent(shareOf(Math.max(...ratios)))})` : ''}`,
          share <= PLUGIN_COST_BAR ? 'the plugin' : 'ours',
        ])
      } finally {
        await Promise.all([ours.stop(), plugin.stop()])
      }
    }
  } finally {
    wrk?.close()
  }
  out(`### Duties: each duty done by the service's own code against its Fastify plugin, small base64, ${client}`)
  out()
  out(
    `Fastify alone with the service's hooks and one duty, done by ours or by the plugin; ${DUTY_PLAN.rounds} alternated rounds of ${DUTY_PLAN.secondsPerRound} s, the service measured in each round. ` +
      "The plugin's cost is the median of the rounds' paired ratios, plugin ÷ ours, less one, times ours' CPU per request, as a share of the service's. " +
      `A duty goes to its plugin unless the plugin costs more than ${PLUGIN_COST_BAR * 100} % of the service's CPU per small request, or the plugins together cost the saturation target (docs/PERFORMANCE.md).`,
  )
  out()
  table(
    [
      'duty',
      'ours',
      'the plugin',
      'server CPU µs/req: ours / plugin / service',
      'plugin ÷ ours: median of the rounds (range)',
      'plugin − ours, µs/req',
      "plugin − ours, share of the service's CPU per request (rounds' range)",
      `by the ${PLUGIN_COST_BAR * 100} % bar alone`,
    ],
    rows,
  )
}

/** How many times a second this process alone does `work`: the in-process reference. */
function inProcessPerSecond(work: () => void): number {
  const seconds = options.quick ? 0.2 : 1
  work()
  let done = 0
  const started = performance.now()
  while (performance.now() - started < seconds * 1000) {
    work()
    done++
  }
  return done / ((performance.now() - started) / 1000)
}

const inputOf = (request: RequestSpec) => (JSON.parse(request.body!) as { input: string }).input

async function large(bench: Bench, { service, baseline }: Servers) {
  progress('large requests')
  const workloads = [
    {
      name: 'sha256, 64 KiB',
      request: LARGE.sha256_64k,
      work: (input: string) => createHash('sha256').update(input, 'utf8').digest('hex'),
      reference: 'crypto',
    },
    { name: 'sha256, 1 MiB', request: LARGE.sha256_1m, work: (input: string) => createHash('sha256').update(input, 'utf8').digest('hex'), reference: 'crypto' },
    { name: 'base64, 1 MiB', request: LARGE.base64_1m, work: (input: string) => Buffer.from(input, 'utf8').toString('base64'), reference: 'Buffer' },
  ]
  const rows: string[][] = []
  for (const { name, request, work, reference } of workloads) {
    const [mine, bare] = await bench.compare(name, [service, baseline], closed([request], LARGE_CONNECTIONS))
    const input = inputOf(request)
    const inProcess = inProcessPerSecond(() => work(input))
    const bytes = bodyBytes(request)
    const ratio = mine.perSecond / bare.perSecond
    rows.push([
      name,
      count(mine.perSecond),
      count(bare.perSecond),
      times(ratio),
      mbps(bytes, mine.perSecond),
      `${ms(mine.cpuPerRequest * 1000)} / ${ms(bare.cpuPerRequest * 1000)}`,
      `${ms(mine.latency('p99'))} / ${ms(bare.latency('p99'))}`,
      `${percentOfCores(mine.serverCpuSeconds, mine.seconds)} + ${percentOfCores(mine.loaderCpuSeconds, mine.seconds)} / ${percentOfCores(bare.serverCpuSeconds, bare.seconds)} + ${percentOfCores(bare.loaderCpuSeconds, bare.seconds)}`,
      `${count(inProcess)}/s (${mbps(bytes, inProcess)}, ${reference})`,
    ])
    if (name.includes('1 MiB')) {
      const throughput = `${times(ratio)}${ratioRange(
        mine.rounds.map((r) => r.ok / r.seconds),
        bare.rounds.map((r) => r.ok / r.seconds),
      )}`
      const efficiency = `server CPU per request, bare ÷ service: ${times(bare.cpuPerRequest / mine.cpuPerRequest)}`
      target(`${name} throughput`, '≥ 0.8× bare node:http', `${throughput}; ${efficiency}`, ratio >= 0.8)
    }
  }
  out(`### Large requests (${LARGE_CONNECTIONS} connections, closed loop; bodies of exactly the size named, 1 MiB being the body limit)`)
  out()
  table(
    [
      'workload',
      'service req/s',
      'bare req/s',
      'service / bare',
      'service MB/s',
      'server CPU ms/req service / bare',
      'p99 ms service / bare',
      'share of the cores, server + load generator: service / bare',
      'in-process reference',
    ],
    rows,
  )
}

async function convert(bench: Bench, { service }: Servers) {
  progress('converters')
  const rows: string[][] = []
  for (const [name, request] of [
    ['csv-json', CONVERT.csv],
    ['yaml-json', CONVERT.yaml],
  ] as const) {
    const [m] = await bench.compare(`${name} 256 KiB`, [service], closed([request], CONVERT_CONNECTIONS), true)
    rows.push([
      `${name}, ${size(bodyBytes(request))}`,
      count(m.perSecond),
      mbps(bodyBytes(request), m.perSecond),
      ms(m.latency('p50')),
      ms(m.latency('p99')),
      ms(m.cpuPerRequest * 1000),
    ])
  }
  out(`### Converters (${CONVERT_CONNECTIONS} connections, closed loop; the work runs on the worker pool)`)
  out()
  table(['workload', 'req/s', 'input MB/s', 'p50 ms', 'p99 ms', 'server CPU ms/req'], rows)

  // yaml-json both ways on 1 MiB, one request at a time: the target's throughput per request.
  const written = Buffer.byteLength((await answerOf(service, YAML_1M_BACK)) as string)
  const yamlRows: string[][] = []
  for (const [name, request, bytes, unit, bar] of [
    ['yamlToJson, 1 MiB of YAML', YAML_1M, bodyBytes(YAML_1M), 'input', YAML_TARGETS.readMBps],
    [`jsonToYaml of the same data (${size(bodyBytes(YAML_1M_BACK))} of JSON)`, YAML_1M_BACK, written, 'output', YAML_TARGETS.writeMBps],
  ] as const) {
    const [m] = await bench.compare(`yaml-json ${name}`, [service], closed([request], 1), true)
    const throughput = (bytes * m.perSecond) / MB
    yamlRows.push([name, count(m.perSecond), `${mbps(bytes, m.perSecond)} of ${unit}`, ms(m.latency('p50')), ms(m.latency('p99')), ms(m.cpuPerRequest * 1000)])
    target(`yaml-json ${name}`, `≥ ${bar} MB/s of ${unit}`, `${throughput.toFixed(1)} MB/s (p50 ${ms(m.latency('p50'))} ms)`, throughput >= bar)
  }
  out('### yaml-json throughput (1 connection, closed loop, through HTTP)')
  out()
  table(['workload', 'req/s', 'MB/s', 'p50 ms', 'p99 ms', 'server CPU ms/req'], yamlRows)
}

/** The `data.result` of one request, which must succeed. */
async function answerOf(server: Server, request: RequestSpec): Promise<unknown> {
  const response = await fetch(`${server.url}${request.path}`, { method: request.method, body: request.body, headers: { 'content-type': 'application/json' } })
  const envelope = (await response.json()) as { success: boolean; data?: { result: unknown }; error?: unknown }
  if (response.status !== 200 || !envelope.success)
    throw new Error(`${request.path} on ${server.label}: HTTP ${response.status} ${JSON.stringify(envelope.error)}`)
  return envelope.data!.result
}

async function isolation(bench: Bench, heavyLoader: LoadGenerator, { service }: Servers) {
  progress('isolation')
  const seconds = Math.max(2, PLAN.secondsPerRound)
  const probe = { kind: 'paced', requests: [SMALL.base64], ...PROBE, seconds } as const
  const heavy = { kind: 'closed', requests: [CONVERT.csv, CONVERT.yaml], connections: CONVERT_CONNECTIONS, seconds: seconds + 1 } as const
  const alone: number[][] = []
  const loaded: number[][] = []
  let heavyPerSecond = 0
  const withHeavy = async () => {
    const running = bench.run(service, heavy, 'heavy CSV/YAML beside the probe', heavyLoader)
    await sleep(500)
    const { result } = await bench.run(service, probe, 'small base64 probe beside heavy work')
    const heavyResult = (await running).result
    heavyPerSecond += heavyResult.ok / heavyResult.seconds / PLAN.rounds
    // The load generator stops sending, but conversions already sent still run: the next probe alone must not meet them.
    await service.untilIdle()
    return result
  }
  const probeAlone = async () => (await bench.run(service, probe, 'small base64 probe')).result
  await bench.run(service, { ...heavy, amount: 2 * CONVERT_CONNECTIONS }, 'heavy CSV/YAML (warm-up)', heavyLoader)
  await service.untilIdle()
  await bench.run(service, { ...probe, seconds: PLAN.warmupSeconds }, 'small base64 probe (warm-up)')
  const summary = (result: LoadResult) => [result.latencyMs.p50, result.latencyMs.p99, result.latencyMs.max]
  for (let round = 0; round < PLAN.rounds; round++) {
    if (round % 2 === 0) {
      alone.push(summary(await probeAlone()))
      loaded.push(summary(await withHeavy()))
    } else {
      loaded.push(summary(await withHeavy()))
      alone.push(summary(await probeAlone()))
    }
  }
  const column = (rows: number[][], i: number) => median(rows.map((row) => row[i]))
  out(
    `### Isolation: small base64 requests at a steady ${PROBE.perSecond}/s over ${PROBE.connections} connections, alone and while ` +
      `${CONVERT_CONNECTIONS} connections send 256 KiB CSV and YAML conversions back to back`,
  )
  out()
  table(
    ['small requests', 'p50 ms', 'p99 ms', 'max ms', 'heavy req/s'],
    [
      ['alone', ms(column(alone, 0)), ms(column(alone, 1)), ms(column(alone, 2)), '–'],
      ['with heavy work', ms(column(loaded, 0)), ms(column(loaded, 1)), ms(column(loaded, 2)), heavyPerSecond.toFixed(1)],
    ],
  )
  const ratio = column(loaded, 1) / column(alone, 1)
  target(
    'small-request p99 while heavy requests run',
    `≤ 2× the p99 without them, or ≤ ${ISOLATION_P99_CEILING_MS} ms`,
    `${times(ratio)} (${ms(column(loaded, 1))} ms against ${ms(column(alone, 1))} ms)`,
    ratio <= 2 || column(loaded, 1) <= ISOLATION_P99_CEILING_MS,
  )
}

async function scaling(bench: Bench, { service, serviceTwoWorkers }: Servers) {
  progress('scaling')
  const measurements = await bench.compare('small base64, scaling', [service, serviceTwoWorkers], closed([SMALL.base64], SMALL_CONNECTIONS))
  out(`### Scaling: small base64, ${SMALL_CONNECTIONS} connections, closed loop, WORKERS=1 against WORKERS=2 on ${CORES} cores`)
  out()
  table(
    ['WORKERS', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'server CPU, share of the cores', 'load generator CPU, share of the cores'],
    measurements.map((m, i) => [
      String(i + 1),
      count(m.perSecond),
      ms(m.latency('p50')),
      ms(m.latency('p99')),
      us(m.cpuPerRequest),
      percentOfCores(m.serverCpuSeconds, m.seconds),
      percentOfCores(m.loaderCpuSeconds, m.seconds),
    ]),
  )
}

/** One request, then as many as take about 3 s (2 with --quick), one at a time. */
async function timeOneByOne(bench: Bench, server: Server, request: RequestSpec, label: string) {
  const first = await bench.run(server, { kind: 'closed', requests: [request], connections: 1, seconds: 600, amount: 1 }, `${label} (warm-up)`)
  const amount = options.quick ? 2 : Math.min(100, Math.max(5, Math.ceil(3000 / Math.max(1, first.result.latencyMs.max))))
  const { result, serverCpuSeconds } = await bench.run(server, { kind: 'closed', requests: [request], connections: 1, seconds: 600, amount }, label)
  return { p50: result.latencyMs.p50, max: result.latencyMs.max, cpuSeconds: serverCpuSeconds, requests: result.ok }
}

/** /proc counts CPU time in ticks of 10 ms: below this much in all, a point's CPU time is too coarse to compare. */
const MEASURABLE_CPU_SECONDS = 0.2

async function growth(bench: Bench, { service }: Servers) {
  progress('growth')
  const series: Array<{ name: string; unit: string; points: Array<{ size: number; request: RequestSpec }> }> = [
    { name: 'base-convert', unit: 'digits', points: BASE_CONVERT_DIGITS.map((digits) => ({ size: digits, request: decimalDigits(digits) })) },
    { name: 'csv-json', unit: 'body', points: GROWTH_SIZES.map((bytes) => ({ size: bytes, request: csvOfBodySize(bytes) })) },
    { name: 'yaml-json', unit: 'body', points: GROWTH_SIZES.map((bytes) => ({ size: bytes, request: yamlOfBodySize(bytes) })) },
  ]
  // The exponent k in cost ∝ size^k from one point to the next: 1 is linear, 2 quadratic.
  const exponent = (cost: number, previousCost: number, n: number, previousN: number) => (Math.log(cost / previousCost) / Math.log(n / previousN)).toFixed(2)
  const rows: string[][] = []
  for (const { name, unit, points } of series) {
    let previous: { size: number; p50: number; cpuSeconds: number; cpu: number } | undefined
    for (const { size: n, request } of points) {
      const timing = await timeOneByOne(bench, service, request, `${name} growth`)
      const cpu = timing.cpuSeconds / Math.max(1, timing.requests)
      const measurable = previous && timing.cpuSeconds >= MEASURABLE_CPU_SECONDS && previous.cpuSeconds >= MEASURABLE_CPU_SECONDS
      rows.push([
        name,
        unit === 'digits' ? `${count(n)} digits` : size(n),
        ms(timing.p50),
        ms(cpu * 1000),
        previous ? exponent(timing.p50, previous.p50, n, previous.size) : '–',
        previous && measurable ? exponent(cpu, previous.cpu, n, previous.size) : '–',
        String(timing.requests),
      ])
      previous = { size: n, p50: timing.p50, cpuSeconds: timing.cpuSeconds, cpu }
    }
  }
  const map = await timeOneByOne(bench, service, yamlMap(YAML_MAP_KEYS), 'yaml-json 40,000-key map')
  rows.push([
    `yaml-json, one map of ${count(YAML_MAP_KEYS)} keys`,
    size(bodyBytes(yamlMap(YAML_MAP_KEYS))),
    ms(map.p50),
    ms((map.cpuSeconds / map.requests) * 1000),
    '–',
    '–',
    String(map.requests),
  ])
  out('### Growth: one request at a time, time against input size')
  out()
  out(
    `The growth exponent k in cost ∝ size^k from the row above: 1 is linear, 2 quadratic (CPU only where /proc measured at least ${MEASURABLE_CPU_SECONDS} s on both rows).`,
  )
  out()
  table(['operation', 'input', 'latency p50 ms', 'server CPU ms/req', 'exponent (latency)', 'exponent (CPU)', 'requests'], rows)
  target(`yaml-json of a ${count(YAML_MAP_KEYS)}-key map`, '< 1 s', `${ms(map.p50)} ms (p50; max ${ms(map.max)} ms)`, map.p50 < 1000)
}

// ---------------------------------------------------------------- checks before load

/**
 * One request of every kind before any load: each must succeed, and where the baseline answers
 * the same request its `data` must be the service's, and both must be right.
 */
async function checkAnswers(bench: Bench, servers: Servers) {
  const call = async (server: Server, request: RequestSpec) => {
    const response = await fetch(`${server.url}${request.path}`, {
      method: request.method,
      ...(request.body !== undefined && { body: request.body, headers: { 'content-type': 'application/json' } }),
    })
    const envelope = (await response.json()) as { success: boolean; data: unknown; error?: unknown }
    if (response.status !== 200 || !envelope.success)
      throw new Error(`${request.method} ${request.path} on ${server.label}: HTTP ${response.status} ${JSON.stringify(envelope.error)}`)
    return envelope.data
  }
  const sha256 = (request: RequestSpec) => ({
    result: createHash('sha256').update(inputOf(request), 'utf8').digest('hex'),
    algorithm: 'sha256',
    encoding: 'hex',
    bits: 256,
  })
  const base64 = (request: RequestSpec) => ({ result: Buffer.from(inputOf(request), 'utf8').toString('base64'), action: 'encode' })
  const paired: Array<[RequestSpec, unknown]> = [
    [SMALL.base64, base64(SMALL.base64)],
    [LARGE.base64_1m, base64(LARGE.base64_1m)],
    [LARGE.sha256_64k, sha256(LARGE.sha256_64k)],
    [LARGE.sha256_1m, sha256(LARGE.sha256_1m)],
  ]
  const others = [
    SMALL.uuid,
    SMALL.baseConvert,
    SMALL.catalogue,
    CONVERT.csv,
    CONVERT.yaml,
    decimalDigits(BASE_CONVERT_DIGITS.at(-1)!),
    csvOfBodySize(MiB),
    YAML_1M,
    YAML_1M_BACK,
    yamlMap(YAML_MAP_KEYS),
  ]
  try {
    for (const [request, expected] of paired) {
      deepStrictEqual(await call(servers.service, request), expected, `the service's answer to ${request.path} is wrong`)
      deepStrictEqual(await call(servers.baseline, request), expected, `the baseline's answer to ${request.path} is wrong`)
    }
    deepStrictEqual(await call(servers.fastify, SMALL.base64), base64(SMALL.base64), `Fastify alone's answer to ${SMALL.base64.path} is wrong`)
    deepStrictEqual(await envelopeShape(servers.fastify), await envelopeShape(servers.service), "Fastify alone does not answer in the service's envelope")
    for (const request of others) await call(servers.service, request)
    await call(servers.serviceTwoWorkers, SMALL.base64)
    await call(servers.serviceWarn, SMALL.base64)
  } catch (error) {
    bench.failures.push(`answers checked before load: ${(error as Error).message}`)
  }
}

/** What an answer to the small base64 request is made of: its status, its content type, the envelope's keys, and whether X-Request-Id is meta.requestId. */
async function envelopeShape(server: Server) {
  const { path, body } = SMALL.base64
  const response = await fetch(`${server.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
  const envelope = (await response.json()) as { data: Record<string, unknown>; meta: Record<string, unknown> }
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    keys: Object.keys(envelope),
    dataKeys: Object.keys(envelope.data),
    metaKeys: Object.keys(envelope.meta),
    requestIdHeader: response.headers.get('x-request-id') === envelope.meta.requestId,
  }
}

// ---------------------------------------------------------------- profiles

/** The reference servers a profile is compared with. */
const BARE = ['baseline', REFERENCE_SOURCES.bare] as const
const FASTIFY_ALONE = ['Fastify alone', REFERENCE_SOURCES.fastify] as const

const PROFILES: Record<string, { load: Load; references: ReadonlyArray<readonly [string, string]> }> = {
  'small-base64': { load: paced([SMALL.base64], SMALL_CONNECTIONS, STEADY_RATE), references: [FASTIFY_ALONE, BARE] },
  'base64-1m': { load: closed([LARGE.base64_1m], LARGE_CONNECTIONS), references: [BARE] },
  'sha256-1m': { load: closed([LARGE.sha256_1m], LARGE_CONNECTIONS), references: [BARE] },
  'csv-yaml-256k': { load: closed([CONVERT.csv, CONVERT.yaml], CONVERT_CONNECTIONS), references: [] },
}

/**
 * `--profile name`: the workload against servers started under `node --cpu-prof`, and where their
 * CPU time went during the load (start-up excluded), per request.
 */
async function profile(name: string, logDir: string) {
  const workload = PROFILES[name]
  if (!workload) throw new Error(`--profile takes ${Object.keys(PROFILES).join(', ')}, not '${name}'`)
  const profileDir = mkdtempSync(join(tmpdir(), `devutils-profile-${name}-`))
  const loader = await LoadGenerator.start()
  const bench = new Bench(loader, PLAN)
  const servers: Array<[string, Server]> = []
  try {
    for (const [label, script, env] of [
      // The sources, not the bundle: the profile then names each function's own module.
      ['service', 'src/server.ts', PRODUCTION] as const,
      ...workload.references.map(([label, script]) => [label, script, {}] as const),
    ]) {
      const dir = join(profileDir, label.replace(/\W+/g, '-'))
      mkdirSync(dir)
      servers.push([dir, await startServer({ label: `${label} (profiled)`, script, env, nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${dir}`], logDir })])
    }
    const windows: Array<{ fromUs: number; toUs: number; requests: number }> = []
    for (const [, server] of servers) {
      await bench.run(server, { ...workload.load, seconds: Math.max(2, PLAN.warmupSeconds) }, `${name} (warm-up)`)
      const fromUs = nowUs()
      const { result } = await bench.run(server, { ...workload.load, seconds: PLAN.secondsPerRound * 2 }, name)
      windows.push({ fromUs, toUs: nowUs(), requests: result.ok })
    }
    for (const [, server] of servers) await server.stop()
    out(`### CPU profile of ${name} (node --cpu-prof; profiles in ${profileDir})`)
    servers.forEach(([dir, server], i) => {
      out()
      out(`${server.label}: ${count(windows[i].requests)} requests`)
      out(summarizeProfiles(dir, windows[i], windows[i].requests))
    })
  } finally {
    for (const [, server] of servers) await server.stop()
    loader.close()
  }
  return bench.failures
}

// ---------------------------------------------------------------- main

/** The commit measured, and whether the working tree differed from it. */
function codeVersion(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
    const changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== ''
    return `commit ${commit}${changed ? ', with uncommitted changes' : ''}`
  } catch {
    return 'not a git checkout'
  }
}

async function main(): Promise<number> {
  const startedAt = new Date()
  const logDir = mkdtempSync(join(tmpdir(), 'devutils-bench-'))
  out(`## devutils bench, ${startedAt.toISOString()}`)
  out()
  out(`- command: \`npm run bench${process.argv.slice(2).length > 0 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\``)
  out(`- code: ${codeVersion()}`)
  out(`- machine: ${CORES} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`)
  out(
    `- load average at the start: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  )
  out(
    `- load generator: autocannon 9 in a separate process; the isolation probe is a paced node:http client in that process; saturation: ${wrkInstalled() ? 'wrk' : 'the same process (wrk is not installed)'}`,
  )
  out(
    `- rounds: ${PLAN.rounds} × ${PLAN.secondsPerRound} s per server and workload, after ${PLAN.warmupSeconds} s of warm-up; servers alternate within each round`,
  )
  out()
  if (options.profile !== undefined) {
    const failures = await profile(options.profile, logDir)
    rmSync(logDir, { recursive: true, force: true })
    return report(failures)
  }

  progress('starting the servers and the load generators')
  const references = await bundleReferenceServers(logDir)
  const loaders = [await LoadGenerator.start(), await LoadGenerator.start()]
  const bench = new Bench(loaders[0], PLAN)
  const started: Server[] = []
  const start = async (options: Parameters<typeof startServer>[0]) => {
    const server = await startServer(options)
    started.push(server)
    return server
  }
  try {
    const [service, baseline, fastify, serviceWarn, serviceTwoWorkers] = await Promise.all([
      start({ label: 'service', script: 'dist/server.js', env: PRODUCTION, logDir }),
      start({ label: 'bare node:http', script: references.bare, logDir }),
      start({ label: 'Fastify alone', script: references.fastify, logDir }),
      start({ label: 'service LOG_LEVEL=warn', script: 'dist/server.js', env: { ...PRODUCTION, LOG_LEVEL: 'warn' }, logDir }),
      start({ label: 'service WORKERS=2', script: 'dist/server.js', env: { ...PRODUCTION, WORKERS: '2' }, listeningLines: 2, logDir }),
    ])
    const servers = { service, baseline, fastify, serviceWarn, serviceTwoWorkers }
    await checkAnswers(bench, servers)
    if (bench.failures.length === 0) {
      if (only.has('startup')) await startup(bench, logDir, references)
      if (only.has('small')) await small(bench, servers)
      if (only.has('saturation')) await saturation(bench, servers)
      if (only.has('duties')) await duties(bench, servers, references.fastify, logDir)
      if (only.has('large')) await large(bench, servers)
      if (only.has('convert')) await convert(bench, servers)
      if (only.has('isolation')) await isolation(bench, loaders[1], servers)
      if (only.has('scaling')) await scaling(bench, servers)
      if (only.has('growth')) await growth(bench, servers)
    }
  } catch (error) {
    bench.failures.push((error as Error).message)
  } finally {
    for (const loader of loaders) loader.close()
    await Promise.all(started.map((server) => server.stop()))
    rmSync(logDir, { recursive: true, force: true })
  }
  if (targets.length > 0) {
    out('### Targets')
    out()
    table(
      ['target', 'bar', 'measured', 'verdict'],
      targets.map((t) => [t.name, t.bar, t.measured, t.met ? 'met' : '**missed**']),
    )
  }
  out(
    `- load average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}; took ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s`,
  )
  return report(bench.failures)
}

function report(failures: string[]): number {
  if (failures.length === 0) return 0
  out()
  out('### Broken')
  for (const failure of failures) out(`- ${failure}`)
  return 1
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`bench: ${error.stack ?? error.message}\n`)
    process.exit(1)
  },
)
