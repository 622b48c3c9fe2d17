import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, test } from 'node:test'
import { execute } from '../../src/core/execute.ts'
import { csvJson } from '../../src/operations/csv-json/index.ts'

const spectrum = dirname(createRequire(import.meta.url).resolve('csv-spectrum/package.json'))
const names = readdirSync(join(spectrum, 'csvs')).map((file) => file.replace(/\.csv$/, ''))

/**
 * Its expected file is broken: it holds a single object rather than an array of rows, and its phone
 * number (1234567890) is not the one in the CSV (2095257564). The test below checks what we do give.
 */
const BROKEN = new Set(['location_coordinates'])

describe('csv-spectrum: csvToJson (header true) gives each expected JSON file', () => {
  test('the suite is all there', () => {
    assert.ok(names.length >= 12, names.join(', '))
    for (const name of BROKEN) assert.ok(names.includes(name))
  })

  for (const name of names.filter((name) => !BROKEN.has(name))) {
    test(name, async () => {
      const csv = readFileSync(join(spectrum, 'csvs', `${name}.csv`), 'utf8')
      const expected = JSON.parse(readFileSync(join(spectrum, 'json', `${name}.json`), 'utf8'))
      const data = await execute(csvJson, { input: csv, header: true })
      assert.deepEqual(data.result, expected)
      assert.equal(data.delimiter, ',')
    })
  }

  test('location_coordinates, whose expected file is broken, reads as the CSV says', async () => {
    const csv = readFileSync(join(spectrum, 'csvs', 'location_coordinates.csv'), 'utf8')
    const data = await execute(csvJson, { input: csv })
    assert.deepEqual(data.result, [
      {
        'Contact Phone Number': '2095257564',
        'Location Coordinates': '37\ufffd36\'37.8"N 121\ufffd2\'17.9"W',
        Cities: 'Modesto',
        Counties: 'Stanislaus',
      },
    ])
  })
})
