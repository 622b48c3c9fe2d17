import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { createClient, DevutilsClientError } from '../../src/client/index.ts'
import { operations } from '../../src/operations/index.ts'
import { buildTestApp } from '../helpers.ts'

describe('the typed client (devutils/client) against a live server', () => {
  let app: FastifyInstance
  let baseUrl: string

  before(async () => {
    app = await buildTestApp()
    await app.listen({ port: 0, host: '127.0.0.1' })
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  })
  after(() => app.close())

  test('a method per operation answers its data', async () => {
    const client = createClient({ baseUrl: `${baseUrl}/` })
    const encoded = await client.base64({ input: 'hi' })
    assert.deepEqual(encoded, { result: 'aGk=', action: 'encode' })
    const address: string = (await client.ipAddress({ cidr: '10.0.0.0/8' })).result
    assert.match(address, /^10\./)
    assert.equal((await client.call('rot13', { input: 'uryyb' })).result, 'hello')
  })

  test('every documented example runs through its method', async () => {
    const client = createClient({ baseUrl }) as unknown as Record<string, (input: unknown) => Promise<unknown>>
    for (const operation of operations) {
      const method = operation.name.replace(/-([a-z0-9])/g, (_match: string, letter: string) => letter.toUpperCase())
      for (const example of operation.examples) {
        const data = await client[method](example.input)
        if (example.output !== undefined) assert.deepEqual(data, example.output, `${operation.name}: ${example.summary}`)
      }
    }
  })

  test('the pipeline and the batch have methods typed from their schemas, and run', async () => {
    const client = createClient({ baseUrl })
    const piped = await client.pipeline({ input: 'hello', steps: [{ operation: 'rot13' }, { operation: 'base64', action: 'encode' }] })
    const steps: object[] = piped.steps
    assert.equal(piped.result, 'dXJ5eWI=')
    assert.deepEqual(steps, [
      { result: 'uryyb', action: 'encode' },
      { result: 'dXJ5eWI=', action: 'encode' },
    ])
    const batched = await client.batch({
      requests: [
        { operation: 'base64', input: 'hi' },
        { operation: 'base-convert', input: '12', fromBase: 2 },
      ],
    })
    const [first, second] = batched.results
    const succeeded: boolean = first.success
    const code: string | undefined = second.error?.code
    const processingTime: number = second.meta.processingTime
    assert.deepEqual(
      [succeeded, first.data, second.success, code, typeof processingTime],
      [true, { result: 'aGk=', action: 'encode' }, false, 'INVALID_INPUT', 'number'],
    )
    assert.equal((await client.call('pipeline', { input: 'uryyb', steps: [{ operation: 'rot13' }] })).result, 'hello')

    // @ts-expect-error: a pipeline needs its steps
    const stepless = await client.pipeline({ input: 'hello' }).catch((error: unknown) => error)
    assert.equal((stepless as DevutilsClientError).code, 'VALIDATION_ERROR')
    // @ts-expect-error: a batch's requests are a list
    const unlisted = await client.batch({ requests: { operation: 'base64', input: 'hi' } }).catch((error: unknown) => error)
    assert.equal((unlisted as DevutilsClientError).code, 'VALIDATION_ERROR')
  })

  test('a refused call throws an error with code, message, details and the HTTP status', async () => {
    const client = createClient({ baseUrl })
    // @ts-expect-error: a number where the schema wants a string is what the service refuses
    const refused = await client.base64({ input: 5 }).catch((error: unknown) => error)
    assert.ok(refused instanceof DevutilsClientError)
    assert.equal(refused.status, 400)
    assert.equal(refused.code, 'VALIDATION_ERROR')
    assert.match(refused.message, /^input must be a string \(received the number 5\)$/)
    assert.deepEqual(refused.details, [{ field: 'input', message: 'must be a string (received the number 5)' }])
    assert.equal(typeof refused.requestId, 'string')
    const unprocessable = await client.base64({ input: 'a*', action: 'decode' }).catch((error: unknown) => error)
    assert.equal((unprocessable as DevutilsClientError).status, 422)
    assert.equal((unprocessable as DevutilsClientError).code, 'INVALID_INPUT')
  })

  test('retries a 429 or 503 after Retry-After when asked to, and only as many times as asked', async () => {
    const limited = await buildTestApp({ rateLimitMax: 1 })
    await limited.listen({ port: 0, host: '127.0.0.1' })
    const limitedUrl = `http://127.0.0.1:${(limited.server.address() as AddressInfo).port}`
    try {
      const statuses: number[] = []
      const counting: typeof fetch = async (input, init) => {
        const response = await fetch(input, init)
        statuses.push(response.status)
        return response
      }
      const noRetry = createClient({ baseUrl: limitedUrl, fetch: counting })
      await noRetry.base64({ input: 'hi' })
      const refused = await noRetry.base64({ input: 'hi' }).catch((error: unknown) => error)
      assert.equal((refused as DevutilsClientError).status, 429)
      assert.equal((refused as DevutilsClientError).code, 'RATE_LIMITED')
      assert.deepEqual(statuses, [200, 429])

      // The live limiter's window is a minute long, so the retry itself is checked on an answer that
      // says Retry-After: 0, as a shedding instance may.
      statuses.length = 0
      let shed = 2
      const shedding: typeof fetch = async (input, init) => {
        if (shed-- > 0) {
          statuses.push(503)
          return new Response(JSON.stringify({ success: false, error: { code: 'OVERLOADED', message: 'busy' } }), {
            status: 503,
            headers: { 'retry-after': '0', 'content-type': 'application/json' },
          })
        }
        const response = await fetch(input, init)
        statuses.push(response.status)
        return response
      }
      const retrying = createClient({ baseUrl, fetch: shedding, retries: 2 })
      assert.deepEqual(await retrying.base64({ input: 'hi' }), { result: 'aGk=', action: 'encode' })
      assert.deepEqual(statuses, [503, 503, 200])
      shed = 2
      const fewer = createClient({ baseUrl, fetch: shedding, retries: 1 })
      assert.equal(((await fewer.base64({ input: 'hi' }).catch((error: unknown) => error)) as DevutilsClientError).code, 'OVERLOADED')
    } finally {
      await limited.close()
    }
  })
})
