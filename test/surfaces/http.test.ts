import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { INTERNAL_ERROR_MESSAGE } from '../../src/core/errors.ts'
import { registryOf } from '../../src/core/registry.ts'
import { buildApp } from '../../src/http/app.ts'
import { operations } from '../../src/operations/index.ts'
import { brokenOperation } from '../fixtures/broken-operation.ts'
import { buildTestApp, type Envelope, post, request } from '../helpers.ts'

function assertError(body: Envelope, code: string, message?: RegExp) {
  assert.equal(body.success, false)
  assert.equal(body.error?.code, code, JSON.stringify(body))
  assert.equal(typeof body.error?.message, 'string')
  if (message) assert.match(body.error!.message, message)
  assert.equal(typeof body.meta.processingTime, 'number')
  assert.equal(typeof body.meta.requestId, 'string')
}

describe('transport rules through the HTTP stack', () => {
  let app: FastifyInstance
  before(async () => {
    app = await buildTestApp({ bodyLimit: 1024 })
  })
  after(() => app.close())

  test('success envelope: success, data, meta with a float processingTime and the request id', async () => {
    const { status, headers, body } = await post(app, 'base64', { input: 'hi' })
    assert.equal(status, 200)
    assert.deepEqual(Object.keys(body), ['success', 'data', 'meta'])
    assert.deepEqual(body.data, { result: 'aGk=', action: 'encode' })
    assert.ok(body.meta.processingTime >= 0 && body.meta.processingTime < 1000)
    assert.equal(Number(body.meta.processingTime.toFixed(3)), body.meta.processingTime, 'at most 3 decimals')
    assert.equal(headers['x-request-id'], body.meta.requestId)
    assert.match(String(headers['content-type']), /^application\/json/)
  })

  test('a safe client X-Request-Id is kept; an unsafe one is replaced', async () => {
    const kept = await request(app, { method: 'POST', url: '/api/v1/base64', headers: { 'x-request-id': 'trace-42' }, payload: { input: '' } })
    assert.equal(kept.json().meta.requestId, 'trace-42')
    const replaced = await request(app, { method: 'POST', url: '/api/v1/base64', headers: { 'x-request-id': 'a b<script>' }, payload: { input: '' } })
    assert.notEqual(replaced.json().meta.requestId, 'a b<script>')
  })

  test('charset=utf-8 is fine; any other media type or charset is 415', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json']) {
      const response = await request(app, { method: 'POST', url: '/api/v1/base64', headers: { 'content-type': contentType }, payload: '{"input":"hi"}' })
      assert.equal(response.statusCode, 200, contentType)
    }
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'multipart/form-data; boundary=x']) {
      const response = await request(app, { method: 'POST', url: '/api/v1/base64', headers: { 'content-type': contentType }, payload: '{"input":"hi"}' })
      assert.equal(response.statusCode, 415, contentType)
      assertError(response.json(), 'UNSUPPORTED_MEDIA_TYPE')
    }
  })

  test('malformed JSON, an empty body, a non-UTF-8 body and prototype keys are 400 INVALID_JSON', async () => {
    for (const payload of ['{"input": "a"', '', '   ', 'nope', '{"input": "a",}']) {
      const { status, body } = await post(app, 'base64', payload)
      assert.equal(status, 400, JSON.stringify(payload))
      assertError(body, 'INVALID_JSON')
    }
    const notUtf8 = Buffer.concat([Buffer.from('{"input":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')])
    const response = await request(app, { method: 'POST', url: '/api/v1/base64', headers: { 'content-type': 'application/json' }, payload: notUtf8 })
    assert.equal(response.statusCode, 400)
    assertError(response.json(), 'INVALID_JSON', /UTF-8/)
    for (const payload of [
      '{"input":"a","__proto__":{"x":1}}',
      '{"input":"a","constructor":{"prototype":{"x":1}}}',
      '{"input":"a","\\u005f_proto__":{}}',
      '[{"a":[{"__proto__":1}]}]',
    ]) {
      const { status, body } = await post(app, 'base64', payload)
      assert.equal(status, 400, payload)
      assertError(body, 'INVALID_JSON', /__proto__|prototype/)
    }
  })

  test('a leading byte order mark is ignored; one anywhere else is text, and a BOM alone is an empty body', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf])
    const send = (payload: Buffer) => request(app, { method: 'POST', url: '/api/v1/base64', headers: { 'content-type': 'application/json' }, payload })
    const withBom = await send(Buffer.concat([bom, Buffer.from('{"input":"a"}')]))
    assert.equal(withBom.statusCode, 200)
    assert.equal(withBom.json().data.result, 'YQ==')
    const inside = await send(Buffer.concat([Buffer.from('{"input":"'), bom, Buffer.from('"}')]))
    assert.equal(inside.json().data.result, Buffer.from('\ufeff').toString('base64'))
    assertError((await send(bom)).json(), 'INVALID_JSON', /empty/)
  })

  test('a POST with no body at all is 400 INVALID_JSON', async () => {
    const response = await request(app, { method: 'POST', url: '/api/v1/base64' })
    assert.equal(response.statusCode, 400)
    assertError(response.json(), 'INVALID_JSON', /empty/)
  })

  test('a field in the query string of a POST is refused, not silently ignored', async () => {
    const response = await request(app, {
      method: 'POST',
      url: '/api/v1/base64?action=decode',
      headers: { 'content-type': 'application/json' },
      payload: '{"input":"eA=="}',
    })
    assert.equal(response.statusCode, 400)
    assertError(response.json(), 'VALIDATION_ERROR', /action was sent in the query string/)
  })

  test('an action that reads an image (qr-code and barcode decode) is refused by GET, whose other actions are answered', async () => {
    for (const operation of ['qr-code', 'barcode']) {
      const response = await request(app, { method: 'GET', url: `/api/v1/${operation}?action=decode&input=iVBORw0KGgo` })
      assert.equal(response.statusCode, 400)
      assertError(response.json(), 'VALIDATION_ERROR', /decode reads its input from a JSON body: send it with POST/)
      assert.equal((await request(app, { method: 'GET', url: `/api/v1/${operation}?input=12345678` })).statusCode, 200)
    }
  })

  test('unknown fields are refused and nothing is coerced: every bad field is listed', async () => {
    const { status, body } = await post(app, 'base64', { input: 'x', action: 'decod', frombase: 1, lineLength: '76', strict: 1 })
    assert.equal(status, 400)
    assertError(body, 'VALIDATION_ERROR')
    const details = body.error!.details as Array<{ field: string; message: string }>
    const byField = Object.fromEntries(details.map((detail) => [detail.field, detail.message]))
    assert.match(byField.action, /one of: encode, decode/)
    assert.match(byField.frombase, /not a known field/)
    assert.match(byField.lineLength, /integer/)
    assert.match(byField.strict, /boolean/)
    assert.match(body.error!.message, /action must be one of: encode, decode/)
  })

  test('eight unknown fields and nothing else wrong: each is named (TypeBox stops at eight errors)', async () => {
    const extras = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h/i']
    const { status, body } = await post(app, 'uuid', Object.fromEntries(extras.map((field) => [field, 1])))
    assert.equal(status, 400)
    assert.deepEqual(
      (body.error!.details as Array<{ field: string }>).map((detail) => detail.field),
      extras,
    )
    assert.match(body.error!.message, /^a is not a known field; allowed fields: [a-z, ]*\bversion\b/)
  })

  test('a missing required field and a body that is not an object are VALIDATION_ERRORs', async () => {
    const missing = await post(app, 'base64', {})
    assertError(missing.body, 'VALIDATION_ERROR', /input is required/)
    for (const payload of ['[]', '"text"', '42', 'null']) {
      const { status, body } = await post(app, 'base64', payload)
      assert.equal(status, 400, payload)
      assertError(body, 'VALIDATION_ERROR', /body must be a JSON object/)
    }
  })

  test('lone surrogates in text are 422', async () => {
    const { status, body } = await post(app, 'base64', '{"input":"ok\\ud800"}')
    assert.equal(status, 422)
    assertError(body, 'INVALID_INPUT', /lone surrogate/)
    assert.deepEqual(body.error!.details, { field: 'input', position: 2 })
  })

  test('a body over the limit is 413 with details.limit', async () => {
    const { status, body } = await post(app, 'base64', { input: 'x'.repeat(2000) })
    assert.equal(status, 413)
    assertError(body, 'PAYLOAD_TOO_LARGE')
    assert.deepEqual(body.error!.details, { limit: 1024 })
  })

  test('unknown operation 404, unknown path 404, wrong method 405 with Allow', async () => {
    const unknown = await post(app, 'nope', { input: 'x' })
    assert.equal(unknown.status, 404)
    assertError(unknown.body, 'UNKNOWN_OPERATION', /nope/)
    const elsewhere = await request(app, { method: 'GET', url: '/wp-admin' })
    assert.equal(elsewhere.statusCode, 404)
    assertError(elsewhere.json(), 'NOT_FOUND')
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
      const response = await request(app, { method, url: '/api/v1/base64' })
      assert.equal(response.statusCode, 405, method)
      assert.equal(response.headers.allow, 'POST')
      assertError(response.json(), 'METHOD_NOT_ALLOWED')
    }
    const health = await request(app, { method: 'POST', url: '/health', payload: {} })
    assert.equal(health.statusCode, 405)
    assert.match(String(health.headers.allow), /GET/)
  })

  test('content problems are 422 INVALID_INPUT with where they are', async () => {
    const { status, body } = await post(app, 'base64', { input: 'ab$c', action: 'decode' })
    assert.equal(status, 422)
    assertError(body, 'INVALID_INPUT', /position 2/)
    assert.deepEqual(body.error!.details, { position: 2 })
  })

  test('service routes: catalogue, health, OpenAPI and the docs page with local assets', async () => {
    const health = await request(app, { method: 'GET', url: '/health' })
    assert.equal(health.statusCode, 200)
    assert.equal(health.json().data.status, 'ok')
    const catalogue = await request(app, { method: 'GET', url: '/api/v1' })
    assert.equal(catalogue.json().data.operations.length, operations.length)
    const docs = await request(app, { method: 'GET', url: '/docs' })
    assert.equal(docs.statusCode, 200)
    assert.doesNotMatch(docs.body, /https?:\/\/(?!localhost)[^"']*\.(js|css)/, 'no asset comes from a CDN')
    const initializer = await request(app, { method: 'GET', url: '/docs/static/swagger-initializer.js' })
    assert.equal(initializer.statusCode, 200)
    assert.match(initializer.body, /"validatorUrl":null/)
    const json = await request(app, { method: 'GET', url: '/docs/json' })
    assert.equal(json.json().openapi, '3.1.0')
  })
})

describe('errors from a defect', () => {
  test('a 500 never shows internals', async () => {
    const lines: string[] = []
    const app = await buildApp({ config: { logLevel: 'info' }, registry: registryOf([brokenOperation]), logStream: { write: (line) => lines.push(line) } })
    const { status, body } = await post(app, 'broken', { input: 'x' })
    assert.equal(status, 500)
    assertError(body, 'INTERNAL_ERROR')
    assert.equal(body.error!.message, INTERNAL_ERROR_MESSAGE)
    assert.doesNotMatch(JSON.stringify(body), /secret|srv/)
    await app.close()
    const defect = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'request failed')
    assert.equal(defect?.defect.type, 'Error', 'the defect is logged')
    assert.equal(defect?.requestId, body.meta.requestId, "through the request's own logger, which carries its id")
    assert.doesNotMatch(lines.join(''), /secret internal detail/, 'but not its message, which may hold input')
  })
})

describe('client errors written to the socket, through a real server', () => {
  let app: FastifyInstance
  let port: number
  before(async () => {
    app = await buildTestApp({ requestTimeoutMs: 400 })
    await app.listen({ port: 0, host: '127.0.0.1' })
    port = (app.server.address() as net.AddressInfo).port
  })
  after(() => app.close())

  /**
   * Sends `head` at once, then `text` one byte every `intervalMs`, and resolves with what came back
   * when the connection closed. A half-open client goes on sending after the server has ended its side.
   */
  function trickle(text: string, intervalMs: number, { head = '', allowHalfOpen = false } = {}) {
    return new Promise<{ response: string; elapsed: number }>((resolve) => {
      const started = Date.now()
      const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen })
      socket.write(head)
      let response = ''
      let sent = 0
      const timer = setInterval(() => {
        if (sent < text.length && !socket.destroyed) socket.write(text[sent++])
      }, intervalMs)
      socket.on('data', (chunk) => (response += chunk))
      socket.on('error', () => {})
      // A connection the server never closes is given up, so that the assertion on the time tells.
      const giveUp = setTimeout(() => socket.destroy(), 10_000)
      socket.on('close', () => {
        clearInterval(timer)
        clearTimeout(giveUp)
        resolve({ response, elapsed: Date.now() - started })
      })
    })
  }

  function envelopeOf(raw: string): Envelope {
    return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))
  }

  test('a client trickling its headers gets 408 and the connection is closed', async () => {
    const { response, elapsed } = await trickle('POST /api/v1/base64 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\r\n', 30)
    assert.match(response, /^HTTP\/1\.1 408 /)
    assertError(envelopeOf(response), 'REQUEST_TIMEOUT')
    assert.ok(elapsed < 2000, `closed after ${elapsed} ms`)
  })

  test('a client trickling its body gets 408 and the connection is closed', async () => {
    const head = 'POST /api/v1/base64 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n'
    const { response } = await trickle(`${head}{"input":"${'x'.repeat(180)}"}`, 5)
    assert.match(response, /^HTTP\/1\.1 408 /)
    assertError(envelopeOf(response), 'REQUEST_TIMEOUT')
  })

  test('a client that goes on sending, however slowly, after its refusal (413) or its timeout (408) is cut soon after its request timeout', async () => {
    const endless = 'x'.repeat(100_000)
    for (const [declaredLength, status, code] of [
      [2_000_000, 413, 'PAYLOAD_TOO_LARGE'],
      [100_000, 408, 'REQUEST_TIMEOUT'],
    ] as const) {
      const head = `POST /api/v1/base64 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${declaredLength}\r\n\r\n`
      const { response, elapsed } = await trickle(endless, 5, { head, allowHalfOpen: true })
      assert.match(response, new RegExp(`^HTTP/1\\.1 ${status} `))
      assertError(envelopeOf(response), code)
      assert.ok(elapsed >= 300 && elapsed < 3000, `${status}: closed after ${elapsed} ms, with a request timeout of 400 ms`)
    }
  })

  test('a malformed request line gets a 400 envelope', async () => {
    const { response } = await trickle('NOT HTTP AT ALL\r\n\r\n', 0)
    assert.match(response, /^HTTP\/1\.1 400 /)
    const requestId = /\r\nX-Request-Id: ([0-9a-f-]{36})\r\n/.exec(response)?.[1]
    assert.equal(requestId, envelopeOf(response).meta.requestId, "the X-Request-Id header is the envelope's id")
    assert.match(response, /\r\nAccess-Control-Allow-Origin: \*\r\n/)
    assertError(envelopeOf(response), 'BAD_REQUEST')
  })
})
