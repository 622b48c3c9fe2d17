import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { otherAction } from '../core/other-action.ts'
import { twoWayRecognisers } from './two-way-recognisers.ts'

/** What the web app offers for this text in this operation's page with this action chosen: the fields to send, or nothing. */
async function offered(operation: string, chosen: string | undefined, text: string) {
  return (await otherAction(await twoWayRecognisers[operation](), operation, chosen, text))?.fields
}

describe('the other action a typed text plainly asks for', () => {
  test('is offered for a text plainly on the other side', async () => {
    const cases: Array<[operation: string, chosen: string, text: string, fields: Record<string, unknown>]> = [
      ['base64', 'encode', 'SGVsbG8sIHdvcmxkIQ==', { action: 'decode' }],
      ['base64', 'encode', '  aGVsbG8gd29ybGQ=\n', { action: 'decode' }],
      // Padding alone is mark enough, and base64url keeps its alphabet.
      ['base64', 'encode', 'SGVsbG8_d29ybGQ-', { action: 'decode', variant: 'url' }],
      ['url', 'encode', 'name%3DJos%C3%A9%20Garc%C3%ADa', { action: 'decode' }],
      ['timestamp', 'dateToTimestamp', '1700000000', { action: 'timestampToDate' }],
      ['timestamp', 'timestampToDate', '2023-11-14T22:13:20Z', { action: 'dateToTimestamp' }],
      ['timestamp', 'timestampToDate', 'Tue, 14 Nov 2023 22:13:20 GMT', { action: 'dateToTimestamp' }],
      ['binary-text', 'textToBinary', '01001000 01101001', { action: 'binaryToText' }],
      ['html-entity', 'encode', 'Tom &amp; Jerry', { action: 'decode' }],
      ['morse', 'encode', '... --- ...', { action: 'decode' }],
    ]
    for (const [operation, chosen, text, fields] of cases) assert.deepEqual(await offered(operation, chosen, text), fields, `${operation} ${chosen} ${text}`)
    assert.deepEqual(new Set(cases.map(([operation]) => operation)), new Set(Object.keys(twoWayRecognisers)), 'a case for every operation listed')
  })

  test('is not offered for ordinary text, for a text of the chosen side, nor while no action is chosen', async () => {
    const cases: Array<[operation: string, chosen: string | undefined, text: string]> = [
      // Letters Base64 allows, but no mark of an encoding: words and names.
      ['base64', 'encode', 'hello'],
      ['base64', 'encode', 'bindings'],
      ['base64', 'encode', 'endsWith'],
      ['base64', 'encode', 'Quantity'],
      ['base64', 'encode', 'closed++'],
      ['base64', 'encode', 'hello world'],
      ['base64', 'encode', 'password123'],
      // Base64 of bytes that are not text is no plain Base64 of anything to read.
      ['base64', 'encode', 'q83vASNFZ4k='],
      ['base64', 'encode', ''],
      ['base64', 'decode', 'SGVsbG8sIHdvcmxkIQ=='],
      ['url', 'encode', '100% sure'],
      ['url', 'encode', 'https://example.com/a b'],
      ['url', 'decode', 'a%20b'],
      ['timestamp', 'timestampToDate', '1700000000'],
      ['timestamp', 'dateToTimestamp', '2023-11-14'],
      ['timestamp', undefined, '1700000000'],
      // Too far from now to be a time anyone means: a number.
      ['timestamp', 'dateToTimestamp', '9999999999999999'],
      ['binary-text', 'textToBinary', '0101'],
      ['html-entity', 'encode', 'Tom & Jerry'],
      ['morse', 'encode', 'SOS'],
    ]
    for (const [operation, chosen, text] of cases)
      assert.equal(await offered(operation, chosen, text), undefined, `${operation} ${chosen} ${JSON.stringify(text)}`)
  })

  test('a text of more than 64 KiB is not read', async () => {
    const base64Of = (text: string) => Buffer.from(text).toString('base64')
    assert.deepEqual(await offered('base64', 'encode', base64Of('Hello, world! '.repeat(100))), { action: 'decode' })
    assert.equal(await offered('base64', 'encode', base64Of('Hello, world! '.repeat(5000))), undefined)
  })
})
