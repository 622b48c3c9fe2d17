import assert from 'node:assert/strict'
import { BARS, png2000 } from '../../../test/heavy-builders.ts'
import { PNG_BOMB } from '../../../test/hostile-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** barcode's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    {
      ...hostile('barcode decode of a 6000×6000 PNG header (a decompression bomb)', { action: 'decode', input: PNG_BOMB }, 422, 'LIMIT_EXCEEDED'),
      message: /6000×6000 PNG/,
    },
    {
      ...hostile(
        'barcode decode of a WebP header',
        { action: 'decode', input: Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1').toString('base64') },
        422,
        'INVALID_INPUT',
      ),
      message: /WebP/,
    },
    hostile('barcode decode of most of a mebibyte of base64 zeros', { action: 'decode', input: 'A'.repeat(1_000_000) }, 422, 'INVALID_INPUT'),
    {
      ...hostile('barcode ean13 with a wrong check digit', { input: '4006381333932', format: 'ean13' }, 422, 'INVALID_INPUT'),
      message: /expecting 1$/,
    },
    hostile('barcode code128 of 81 characters, one past its bound', { input: 'a'.repeat(81) }, 422, 'LIMIT_EXCEEDED'),
    hostile('barcode pdf417 of 7,089 digits, past its capacity', { input: '9'.repeat(7089), format: 'pdf417' }, 422, 'LIMIT_EXCEEDED'),
    hostile('barcode code128 of 80 characters as a 3740-pixel-wide PNG', { input: 'a'.repeat(80), output: 'png', scale: 4, height: 300 }, 200),
    hostile('barcode code128 of 80 characters at scale 10, past 4,096 pixels', { input: 'a'.repeat(80), output: 'png', scale: 10 }, 422, 'LIMIT_EXCEEDED'),
    hostile('barcode the largest aztec symbol as a PNG at scale 10', { input: '1'.repeat(3000), format: 'aztec', output: 'png', scale: 10, margin: 20 }, 200),
  ],
  heavy: [
    {
      summary: 'decode every symbol of a 2000×2000 PNG of one-pixel checks',
      input: { action: 'decode', all: true, input: png2000((y) => Buffer.from(Array.from({ length: 2000 }, (_, x) => ((x + y) % 2 ? 0 : 255)))) },
    },
    {
      summary: 'decode every symbol of a 2000×2000 PNG of random bars',
      input: { action: 'decode', all: true, input: png2000(() => BARS) },
    },
    { summary: 'the largest aztec PNG', input: { input: '1'.repeat(3000), format: 'aztec', output: 'png', scale: 10, margin: 20 } },
  ],
  mcpTasks: [
    {
      task: 'generate an EAN-13 barcode for product number 400638133393',
      arguments: { input: '400638133393', format: 'ean13' },
      check: (data) => assert.equal(data.text, '4006381333931'),
    },
  ],
}
