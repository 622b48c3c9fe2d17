import assert from 'node:assert/strict'
import { BARS, png2000 } from '../../../test/heavy-builders.ts'
import { PNG_BOMB } from '../../../test/hostile-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** qr-code's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    { ...hostile('qr-code decode of a 6000×6000 PNG header', { action: 'decode', input: PNG_BOMB }, 422, 'LIMIT_EXCEEDED'), message: /6000×6000/ },
    hostile('qr-code decode of a PNG signature and nothing else', { action: 'decode', input: 'iVBORw0KGgo=' }, 422, 'INVALID_INPUT'),
  ],
  heavy: [
    {
      summary: 'the largest PNG',
      input: { input: '1'.repeat(7089), errorCorrection: 'L', format: 'png', scale: 10, margin: 10 },
    },
    { summary: 'decode a 2000×2000 PNG of random bars', input: { action: 'decode', all: true, input: png2000(() => BARS) } },
  ],
  mcpTasks: [
    {
      task: 'read the QR code in this PNG image',
      arguments: {
        action: 'decode',
        input:
          'iVBORw0KGgoAAAANSUhEUgAAADIAAAAyCAAAAAA7VNdtAAAAtElEQVR42t2W3QqAMAiFff+XrosIPf40pwbRoEFbnx30uKJje9CnEYJx3ctZ7nUQ8VrC2dlrICyKpQZ7QwgDbyK8Mo1gIvVjibokEG0YeSU9tkQcg9N2v6QQW847zcasRYQtiMXUwXqIXLKCphDZTloYBusg2Lg6gElHGfHsItsZQhURa3AvFX0EReExHggrIbHxsbHnECwgAnOILqJqvgZiP3zegdhDzCHqSn302BL5yZ/SCZzlHjdOt1ZRAAAAAElFTkSuQmCC',
      },
      check: (data) => assert.equal(data.result, 'hi'),
    },
  ],
  searchWords: ['qr'],
}
