import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildTestApp } from '../helpers.ts'

/**
 * Control characters that a string literal may not hold raw in the languages code generators write
 * (TypeScript, Java, Go, C#…), where enum values and defaults become source code. A tab may stand
 * in a string literal, and is one of the published choices (csv-json's delimiter, json's indent).
 */
const UNWRITABLE = /[^\P{Cc}\t]/u

/** Every string in a value, however deeply nested. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (value === null || typeof value !== 'object') return []
  return Object.values(value).flatMap(stringsOf)
}

describe('the OpenAPI document, as code generators read it', () => {
  let app: FastifyInstance
  let document: unknown

  before(async () => {
    app = await buildTestApp()
    document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
  })
  after(() => app.close())

  test('no enum value, const or default holds a raw control character', () => {
    const problems: string[] = []
    let values = 0
    const visit = (node: unknown, path: string) => {
      if (node === null || typeof node !== 'object') return
      const schema = node as Record<string, unknown>
      for (const keyword of ['enum', 'const', 'default']) {
        if (!(keyword in schema)) continue
        for (const text of stringsOf(schema[keyword])) {
          values++
          if (UNWRITABLE.test(text)) problems.push(`${path}/${keyword}: ${JSON.stringify(text)}`)
        }
      }
      // Examples are data (CSV text has line breaks), not values a generator names.
      for (const [key, value] of Object.entries(schema)) if (key !== 'examples' && key !== 'example') visit(value, `${path}/${key}`)
    }
    visit(document, '#')
    assert.ok(values > 100, `the walk found only ${values} values`)
    assert.deepEqual(problems, [])
  })
})
