import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { validate } from '../../core/validate.ts'
import { OFFLOAD_LENGTH, url } from './index.ts'

const run = (input: Record<string, unknown>) => execute(url, input, { timeBudgetMs: 60_000 })
const encode = async (input: string, options: Record<string, unknown> = {}) => (await run({ input, ...options })).result
const decode = async (input: string, options: Record<string, unknown> = {}) => (await run({ input, action: 'decode', ...options })).result
const rejectsAt = (input: Record<string, unknown>, position: number, pattern: RegExp) =>
  expectRefusal(run(input), { code: 'INVALID_INPUT', position, message: pattern })

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'
const RESERVED = ":/?#[]@!$&'()*+,;="
/** The ASCII characters that are neither, so are encoded in both scopes (space, % and the controls aside). */
const OTHER_ASCII = '"<>\\^`{|}'
/** Any Unicode scalar value, a third of them ASCII (fast-check's own 'binary' unit takes seconds to warm up). */
const codePoint = fc
  .oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }))
  .map((code) => String.fromCodePoint(code))
const unicodeText = fc.string({ unit: codePoint })
const percentEscaped = (char: string) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`

describe('url', () => {
  test('the documented example: a space is %20 and ! is %21', async () => {
    assert.deepEqual(await run({ input: 'hello world!' }), { result: 'hello%20world%21', action: 'encode' })
    assert.deepEqual(await run({ input: 'hello%20world%21', action: 'decode' }), { result: 'hello world!', action: 'decode' })
  })

  test('component scope keeps only the unreserved characters', async () => {
    for (const char of UNRESERVED) assert.equal(await encode(char), char)
    for (const char of `${RESERVED + OTHER_ASCII} %`) assert.equal(await encode(char), percentEscaped(char), char)
    assert.equal(await encode("!'()*"), '%21%27%28%29%2A')
    for (let code = 0; code < 0x20; code++) assert.equal(await encode(String.fromCharCode(code)), percentEscaped(String.fromCharCode(code)))
    assert.equal(await encode('\u007f'), '%7F')
  })

  test('uri scope also keeps the reserved characters and existing escapes', async () => {
    for (const char of UNRESERVED + RESERVED) assert.equal(await encode(char, { scope: 'uri' }), char)
    for (const char of `${OTHER_ASCII} `) assert.equal(await encode(char, { scope: 'uri' }), percentEscaped(char), char)
    assert.equal(await encode('100% sure, %41%2f%zz %4', { scope: 'uri' }), '100%25%20sure,%20%41%2f%25zz%20%254')
    assert.equal(await encode('https://例え.jp/a b?q=ü&r=%20#x', { scope: 'uri' }), 'https://%E4%BE%8B%E3%81%88.jp/a%20b?q=%C3%BC&r=%20#x')
  })

  test('multi-byte and astral characters are encoded byte by byte, hex in upper case', async () => {
    assert.equal(await encode('é'), '%C3%A9')
    assert.equal(await encode('€'), '%E2%82%AC')
    assert.equal(await encode('😀'), '%F0%9F%98%80')
    assert.equal(await encode('ÿ', { scope: 'uri' }), '%C3%BF')
    assert.equal(await decode('%c3%a9%E2%82%ac%f0%9f%98%80'), 'é€😀')
    assert.equal(await decode('café 😀 stays'), 'café 😀 stays')
  })

  test('spaceAsPlus and plusAsSpace: form encoding', async () => {
    assert.equal(await encode('a b+c', { spaceAsPlus: true }), 'a+b%2Bc')
    assert.equal(await encode('a b+c'), 'a%20b%2Bc')
    assert.equal(await encode('?q=a b+c', { scope: 'uri', spaceAsPlus: true }), '?q=a+b+c')
    assert.equal(await decode('a+b%2Bc', { plusAsSpace: true }), 'a b+c')
    assert.equal(await decode('a+b%2Bc'), 'a+b+c')
    assert.equal(await decode('a+b', { scope: 'uri', plusAsSpace: true }), 'a b')
  })

  test('component decoding decodes every escape; uri decoding leaves escapes of reserved characters', async () => {
    const encodedReserved = [...RESERVED].map(escape).join('')
    assert.equal(await decode(encodedReserved), RESERVED)
    assert.equal(await decode(encodedReserved, { scope: 'uri' }), encodedReserved)
    assert.equal(await decode('%2f%3A', { scope: 'uri' }), '%2f%3A')
    assert.equal(await decode('a%2Fb%20c%25d%41', { scope: 'uri' }), 'a%2Fb c%dA')
  })

  test('a malformed escape is a 422 with its position', async () => {
    await rejectsAt({ input: '%', action: 'decode' }, 0, /'%' at position 0/)
    await rejectsAt({ input: 'ab%4', action: 'decode' }, 2, /two hex digits/)
    await rejectsAt({ input: 'ab%zz', action: 'decode' }, 2, /position 2/)
    await rejectsAt({ input: '%41%4g', action: 'decode', scope: 'uri' }, 3, /position 3/)
    await rejectsAt({ input: 'é😀%x', action: 'decode' }, 3, /position 3/)
  })

  test('escaped bytes that are not UTF-8 are a 422 with the position of their escape, never U+FFFD', async () => {
    await rejectsAt({ input: 'ab%FF', action: 'decode' }, 2, /not valid UTF-8/)
    await rejectsAt({ input: '%C3%A9%C3', action: 'decode' }, 6, /position 6/)
    await rejectsAt({ input: '%C3x%A9', action: 'decode' }, 0, /position 0/)
    await rejectsAt({ input: 'é%A9', action: 'decode' }, 1, /position 1/)
    await rejectsAt({ input: '%ED%A0%80', action: 'decode' }, 0, /UTF-8/)
    await rejectsAt({ input: '%C0%AF', action: 'decode' }, 0, /UTF-8/)
    await rejectsAt({ input: '😀%E2%82%2F', action: 'decode', scope: 'uri' }, 2, /position 2/)
  })

  test('an encoding that would pass the output limit is refused before it is built', async () => {
    await assert.rejects(run({ input: ' '.repeat(6 * 1024 * 1024) }), (error: Error & { code?: string }) => error.code === 'LIMIT_EXCEEDED')
    assert.equal(String((await run({ input: ' '.repeat(6 * 1024 * 1024), spaceAsPlus: true })).result).length, 6 * 1024 * 1024)
  })

  test('schema errors are 400s', async () => {
    for (const input of [{ input: 'x', scope: 'all' }, { input: 'x', spaceAsPlus: 'true' }, { input: 1 }, { input: 'x', plusasspace: true }]) {
      await assert.rejects(run(input), (error: Error & { code?: string }) => error.code === 'VALIDATION_ERROR')
    }
  })

  test("encoding agrees with encodeURIComponent once !'()* are escaped too", async () => {
    await fc.assert(
      fc.asyncProperty(unicodeText, async (text) => {
        const expected = encodeURIComponent(text).replace(/[!'()*]/g, percentEscaped)
        assert.equal(await encode(text), expected)
      }),
    )
  })

  test('round trip in component scope, with and without form encoding', async () => {
    await fc.assert(
      fc.asyncProperty(unicodeText, fc.boolean(), async (text, form) => {
        const encoded = await encode(text, { spaceAsPlus: form })
        assert.match(String(encoded), /^[A-Za-z0-9\-._~%+]*$/)
        assert.equal(await decode(String(encoded), { plusAsSpace: form }), text)
      }),
    )
  })

  test('round trip in uri scope, for text without existing escapes', async () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom(...RESERVED, '%', 'A', 'f', '2'), codePoint) })
    await fc.assert(
      fc.asyncProperty(
        text.filter((value) => !/%[0-9A-Fa-f]{2}/.test(value)),
        async (value) => {
          const encoded = await encode(value, { scope: 'uri' })
          assert.equal(await decode(String(encoded), { scope: 'uri' }), value)
        },
      ),
    )
  })
})

describe('url: where it runs', () => {
  test(`inputs over ${OFFLOAD_LENGTH} characters run on a worker thread`, () => {
    const offloads = (input: string) => url.offload!(validate(url.input, { input }))
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH)), false)
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH + 1)), true)
  })
})
