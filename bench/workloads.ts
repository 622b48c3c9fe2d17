/** The requests the bench sends: small ones per category, and large bodies of a chosen size. */

export const KiB = 1024
export const MiB = 1024 * KiB

export interface RequestSpec {
  method: 'GET' | 'POST'
  path: string
  /** The JSON body of a POST. */
  body?: string
}

export const post = (operation: string, payload: Record<string, unknown>): RequestSpec => ({
  method: 'POST',
  path: `/api/v1/${operation}`,
  body: JSON.stringify(payload),
})

export const SMALL = {
  base64: post('base64', { input: 'The quick brown fox jumps over the lazy dog' }),
  uuid: post('uuid', {}),
  baseConvert: post('base-convert', { input: '123456789', fromBase: 10, toBase: 36 }),
  catalogue: { method: 'GET', path: '/api/v1' } satisfies RequestSpec,
}

/** A deterministic stream of pseudo-random integers below `bound` (a 32-bit LCG), so every run sends the same bytes. */
function numbers(seed: number) {
  let state = seed >>> 0
  return (bound: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state % bound
  }
}

/** Text of `length` characters needing no JSON escape, in letters, digits and spaces. */
export function plainText(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789 '
  const next = numbers(length)
  let text = ''
  while (text.length < length) text += alphabet[next(alphabet.length)]
  return text
}

/** `{"input":"…"}` of exactly `bytes` bytes: the input is what is left once the JSON around it is counted. */
export function textOfBodySize(operation: string, bytes: number): RequestSpec {
  return post(operation, { input: plainText(bytes - JSON.stringify({ input: '' }).length) })
}

/**
 * `{"input": text}` for the largest text built of whole pieces (`header` then `piece(0)`,
 * `piece(1)`, …) whose JSON body stays within `bytes`.
 */
function piecesOfBodySize(operation: string, bytes: number, header: string, piece: (index: number) => string): RequestSpec {
  const jsonLength = (text: string) => JSON.stringify(text).length - 2
  const budget = bytes - JSON.stringify({ input: '' }).length
  const pieces = [header]
  let used = jsonLength(header)
  for (let index = 0; ; index++) {
    const next = piece(index)
    const length = jsonLength(next)
    if (used + length > budget) break
    pieces.push(next)
    used += length
  }
  return post(operation, { input: pieces.join('') })
}

/** CSV with quoted fields (delimiters and doubled quotes inside), numbers and booleans. */
export function csvOfBodySize(bytes: number): RequestSpec {
  return piecesOfBodySize(
    'csv-json',
    bytes,
    'id,name,email,amount,active,note\n',
    (i) =>
      `${i + 1},Customer ${i + 1},customer${i + 1}@example.com,${((i * 7919) % 100_000) / 100},${i % 3 === 0},"Note ${i + 1}, with a comma and ""quotes"""\n`,
  )
}

/** A YAML sequence of records with nested maps, flow sequences, numbers, booleans and a quoted string. */
export function yamlOfBodySize(bytes: number): RequestSpec {
  return piecesOfBodySize(
    'yaml-json',
    bytes,
    '# customers\n',
    (i) =>
      `- id: ${i + 1}\n  name: Customer ${i + 1}\n  email: customer${i + 1}@example.com\n  amount: ${((i * 7919) % 100_000) / 100}\n` +
      `  active: ${i % 3 === 0}\n  tags: [alpha, beta]\n  address:\n    city: City ${i % 97}\n    zip: "${String(i % 100_000).padStart(5, '0')}"\n`,
  )
}

/** The data of yamlOfBodySize's YAML, as JSON values: the records it lists. */
export function yamlRecords(request: RequestSpec): unknown[] {
  const records: unknown[] = []
  for (const block of (JSON.parse(request.body!) as { input: string }).input.split('\n- ').slice(1)) {
    const field = (name: string) => new RegExp(`(?:^|\n) *${name}: (.*)`).exec(block)![1]
    records.push({
      id: Number(field('id')),
      name: field('name'),
      email: field('email'),
      amount: Number(field('amount')),
      active: field('active') === 'true',
      tags: ['alpha', 'beta'],
      address: { city: field('city'), zip: JSON.parse(field('zip')) as string },
    })
  }
  return records
}

/** The yaml-json target: one map of `keys` keys. */
export function yamlMap(keys: number): RequestSpec {
  let input = ''
  for (let i = 0; i < keys; i++) input += `key${String(i).padStart(5, '0')}: value ${i}\n`
  return post('yaml-json', { input })
}

/** A decimal integer of `digits` digits, converted to hexadecimal. */
export function decimalDigits(digits: number): RequestSpec {
  const next = numbers(digits)
  let input = String(1 + next(9))
  while (input.length < digits) input += String(next(10))
  return post('base-convert', { input, fromBase: 10, toBase: 16 })
}

export const bodyBytes = (request: RequestSpec) => (request.body === undefined ? 0 : Buffer.byteLength(request.body))
