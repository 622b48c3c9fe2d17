import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuTimeOfAsync, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { gs1CheckDigit } from '../../lib/checksums/gs1.ts'
import { mod97_10CheckDigits } from '../../lib/checksums/mod97.ts'
import { checkDigit, dammCheckDigit, luhnCheckDigit, mod11_2CheckDigit, SCHEMES, verhoeffCheckDigit } from './index.ts'

interface Answer {
  result: string
  action: string
  scheme: string
  valid?: boolean
  checkDigit: string
  expectedCheckDigit?: string
  isbn10?: string
  isbn13?: string
  formatted?: string
  brand?: string
  brandName?: string
  brands?: string[]
  lengthValid?: boolean
}

const run = async (input: Record<string, unknown>) => (await execute(checkDigit, input)) as unknown as Answer
const validate = (input: string, scheme: string) => run({ input, scheme })
const compute = (input: string, scheme: string) => run({ input, scheme, action: 'compute' })

describe('check-digit: published examples', () => {
  test('Luhn (Wikipedia, "Luhn algorithm"): 79927398713 is valid, and the check digit of 7992739871 is 3', async () => {
    assert.deepEqual(await validate('79927398713', 'luhn'), { result: '79927398713', action: 'validate', scheme: 'luhn', valid: true, checkDigit: '3' })
    assert.deepEqual(await compute('7992739871', 'luhn'), { result: '79927398713', action: 'compute', scheme: 'luhn', checkDigit: '3' })
    for (const wrong of ['79927398710', '79927398711', '79927398712', '79927398714', '79927398719']) {
      const answer = await validate(wrong, 'luhn')
      assert.equal(answer.valid, false, wrong)
      assert.equal(answer.expectedCheckDigit, '3', wrong)
    }
  })

  // Payment providers' published test card numbers (Stripe's, Adyen's and Braintree's testing pages).
  const TEST_CARDS: Array<[string, string, string]> = [
    ['4111111111111111', 'visa', '4111 1111 1111 1111'],
    ['5555555555554444', 'mastercard', '5555 5555 5555 4444'],
    ['2223003122003222', 'mastercard', '2223 0031 2200 3222'],
    ['378282246310005', 'american-express', '3782 822463 10005'],
    ['6011111111111117', 'discover', '6011 1111 1111 1117'],
    ['3530111333300000', 'jcb', '3530 1113 3330 0000'],
    ['30569309025904', 'diners-club', '3056 930902 5904'],
    ['6200000000000005', 'unionpay', '6200 0000 0000 0005'],
    ['2200000000000004', 'mir', '2200 0000 0000 0004'],
  ]
  for (const [number, brand, formatted] of TEST_CARDS) {
    test(`card ${number}: Luhn-valid, ${brand}, grouped as ${formatted}`, async () => {
      const answer = await validate(number, 'card')
      assert.equal(answer.valid, true)
      assert.equal(answer.brand, brand)
      assert.deepEqual(answer.brands, [brand])
      assert.equal(answer.lengthValid, true)
      assert.equal(answer.formatted, formatted)
      assert.equal(answer.result, number)
      // Spaced as printed on the card, the same answer.
      assert.deepEqual(await validate(formatted, 'card'), answer)
    })
  }

  test('ISBN (Wikipedia, "ISBN"): 978-0-306-40615-7 and 0-306-40615-2 are one book; 0-8044-2957-X ends in X', async () => {
    assert.deepEqual(await validate('978-0-306-40615-7', 'isbn'), {
      result: '9780306406157',
      action: 'validate',
      scheme: 'isbn13',
      valid: true,
      checkDigit: '7',
      isbn10: '0306406152',
      isbn13: '9780306406157',
    })
    assert.deepEqual(await validate('0-306-40615-2', 'isbn'), {
      result: '0306406152',
      action: 'validate',
      scheme: 'isbn10',
      valid: true,
      checkDigit: '2',
      isbn10: '0306406152',
      isbn13: '9780306406157',
    })
    const x = await validate('0-8044-2957-X', 'isbn10')
    assert.deepEqual([x.valid, x.checkDigit, x.isbn13], [true, 'X', '9780804429573'])
    assert.equal((await validate('0-8044-2957-x', 'isbn')).valid, true, 'a lower-case x is read as X')
    assert.equal((await compute('080442957', 'isbn10')).result, '080442957X')
    assert.equal((await compute('978030640615', 'isbn')).result, '9780306406157')
    assert.deepEqual(await validate('978-0-306-40615-2', 'isbn13').then(({ valid, expectedCheckDigit }) => [valid, expectedCheckDigit]), [false, '7'])
  })

  test("ISBN International Agency: its Users' Manual is ISBN 978-92-95055-12-4; a 979 ISBN has no ISBN-10", async () => {
    const manual = await validate('ISBN 978-92-95055-12-4', 'isbn')
    assert.deepEqual([manual.valid, manual.isbn10, manual.isbn13], [true, '9295055128', '9789295055124'])
    const prefix979 = await compute('979-10-90636-07', 'isbn13')
    assert.equal(prefix979.isbn10, undefined)
    assert.equal(prefix979.result, `979109063607${prefix979.checkDigit}`)
    assert.equal((await validate(prefix979.result, 'isbn')).isbn10, undefined)
  })

  test('GS1 (the GS1 check digit calculation; Wikipedia, "International Article Number" and "Universal Product Code"): EAN-13, EAN-8, UPC-A', async () => {
    assert.equal((await compute('629104150021', 'ean13')).checkDigit, '3')
    assert.equal((await validate('4006381333931', 'ean13')).valid, true)
    assert.equal((await validate('96385074', 'ean8')).valid, true)
    assert.equal((await validate('036000291452', 'upca')).valid, true)
    assert.deepEqual(
      await Promise.all(['96385074', '036000291452', '4006381333931', '04006381333931'].map(async (number) => (await validate(number, 'gtin')).scheme)),
      ['ean8', 'upca', 'ean13', 'gtin14'],
    )
    assert.equal((await validate('4006381333932', 'ean13')).expectedCheckDigit, '1')
  })

  test('ISSN (the ISSN International Centre; Wikipedia, "ISSN"): 0317-8471, 0378-5955 and 2434-561X', async () => {
    assert.deepEqual(await validate('0317-8471', 'issn'), {
      result: '03178471',
      action: 'validate',
      scheme: 'issn',
      valid: true,
      checkDigit: '1',
      formatted: '0317-8471',
    })
    assert.equal((await validate('ISSN 0378-5955', 'issn')).valid, true)
    assert.deepEqual(await validate('2434-561X', 'issn').then(({ valid, checkDigit }) => [valid, checkDigit]), [true, 'X'])
    assert.equal((await compute('2434561', 'issn')).formatted, '2434-561X')
  })

  test('Verhoeff (Wikipedia, "Verhoeff algorithm"; Rosetta Code): 236 → 3, 12345 → 1, 123456789012 → 0', async () => {
    assert.deepEqual(await compute('236', 'verhoeff'), { result: '2363', action: 'compute', scheme: 'verhoeff', checkDigit: '3' })
    assert.equal((await compute('12345', 'verhoeff')).checkDigit, '1')
    assert.equal((await compute('123456789012', 'verhoeff')).checkDigit, '0')
    assert.equal((await validate('2363', 'verhoeff')).valid, true)
    assert.equal((await validate('2364', 'verhoeff')).valid, false)
  })

  test('Damm (Wikipedia, "Damm algorithm"; Rosetta Code): 572 → 4; 5724 and 112946 valid, 5727 and 112949 not', async () => {
    assert.deepEqual(await compute('572', 'damm'), { result: '5724', action: 'compute', scheme: 'damm', checkDigit: '4' })
    assert.deepEqual(await Promise.all(['5724', '5727', '112946', '112949'].map(async (number) => (await validate(number, 'damm')).valid)), [
      true,
      false,
      true,
      false,
    ])
  })

  test('ISO 7064 MOD 11-2: the standard’s 0794 → 0, and ORCID’s 0000-0002-1825-0097 and 0000-0002-1694-233X', async () => {
    assert.equal((await compute('0794', 'iso7064-mod11-2')).result, '07940')
    assert.deepEqual(await validate('0000-0002-1825-0097', 'iso7064-mod11-2'), {
      result: '0000000218250097',
      action: 'validate',
      scheme: 'iso7064-mod11-2',
      valid: true,
      checkDigit: '7',
    })
    assert.deepEqual(await validate('0000-0002-1694-233X', 'iso7064-mod11-2').then(({ valid, checkDigit }) => [valid, checkDigit]), [true, 'X'])
    assert.equal((await validate('0000-0002-1694-2330', 'iso7064-mod11-2')).expectedCheckDigit, 'X')
  })

  test('ISO 7064 MOD 97-10: the IBAN registry’s GB82 WEST… (BBAN then country, ISO 13616) and a published LEI (ISO 17442)', async () => {
    assert.equal((await compute('WEST12345698765432GB', 'iso7064-mod97-10')).checkDigit, '82')
    assert.equal((await validate('5493001KJTIIGC8Y1R12', 'iso7064-mod97-10')).valid, true)
    assert.equal((await validate('5493001kjtiigc8y1r12', 'iso7064-mod97-10')).result, '5493001KJTIIGC8Y1R12')
    assert.equal((await validate('5493001KJTIIGC8Y1R13', 'iso7064-mod97-10')).expectedCheckDigit, '12')
    // Made once with python3's integers: 98 - (1234567890 * 100 % 97) is 92, and 98 - (30 * 100 % 97) is 8, written 08.
    assert.equal(mod97_10CheckDigits('1234567890'), '92')
    assert.equal((await compute('30', 'iso7064-mod97-10')).result, '3008')
  })
})

describe('check-digit: cards', () => {
  test('a prefix no brand issues: Luhn still checked, no brand, groups of four', async () => {
    const answer = await validate('1234567812345670', 'card')
    assert.deepEqual([answer.valid, answer.brand, answer.brands, answer.lengthValid, answer.formatted], [true, undefined, [], false, '1234 5678 1234 5670'])
  })

  test("lengthValid follows credit-card-type's lengths: the 13-digit Visa test number is Luhn-valid but not a length Visa issues now", async () => {
    const answer = await validate('4222222222222', 'card')
    assert.deepEqual([answer.valid, answer.brand, answer.lengthValid, answer.formatted], [true, 'visa', false, '4222 2222 2222 2'])
  })

  test('compute completes a card number and names its brand', async () => {
    const answer = await compute('411111111111111', 'card')
    assert.deepEqual([answer.result, answer.checkDigit, answer.brand], ['4111111111111111', '1', 'visa'])
  })
})

/** The number without its check digit(s), for each scheme, as fast-check draws it. */
const DIGITS = fc.constantFrom(...'0123456789')
const digits = (min: number, max = min) => fc.string({ unit: DIGITS, minLength: min, maxLength: max })
const PAYLOADS: Record<string, fc.Arbitrary<string>> = {
  luhn: digits(1, 63),
  card: digits(7, 18),
  isbn10: digits(9),
  isbn13: fc.tuple(fc.constantFrom('978', '979'), digits(9)).map(([prefix, rest]) => prefix + rest),
  ean13: digits(12),
  ean8: digits(7),
  upca: digits(11),
  gtin: digits(13),
  issn: digits(7),
  verhoeff: digits(1, 63),
  damm: digits(1, 63),
  'iso7064-mod11-2': digits(1, 63),
  'iso7064-mod97-10': fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 1, maxLength: 62 }),
}

describe('check-digit: properties', () => {
  test('compute then validate: every completed number is valid, and its check digit is the one computed', async () => {
    for (const [scheme, payloads] of Object.entries(PAYLOADS)) {
      await fc.assert(
        fc.asyncProperty(payloads, async (payload) => {
          const completed = await compute(payload, scheme)
          assert.equal(completed.result.slice(0, payload.length), payload)
          const checked = await validate(completed.result, scheme)
          assert.equal(checked.valid, true, `${scheme} ${completed.result}`)
          assert.equal(checked.checkDigit, completed.checkDigit)
        }),
        { numRuns: 50 },
      )
    }
  })

  test('every single-character substitution is caught by Luhn, GS1, ISBN-10, ISSN, Verhoeff, Damm and ISO 7064', async () => {
    const schemes = ['luhn', 'ean13', 'isbn10', 'issn', 'verhoeff', 'damm', 'iso7064-mod11-2', 'iso7064-mod97-10']
    for (const scheme of schemes) {
      await fc.assert(
        fc.asyncProperty(PAYLOADS[scheme === 'iso7064-mod97-10' ? 'luhn' : scheme], fc.nat(), DIGITS, async (payload, at, digit) => {
          const { result } = await compute(payload, scheme)
          const index = at % result.length
          fc.pre(result[index] !== digit)
          const changed = result.slice(0, index) + digit + result.slice(index + 1)
          assert.equal((await validate(changed, scheme)).valid, false, `${scheme}: ${result} → ${changed}`)
        }),
        { numRuns: 200 },
      )
    }
  })

  test('every swap of two adjacent different digits is caught by Verhoeff and Damm (and ISO 7064 MOD 11-2 and 97-10)', async () => {
    for (const scheme of ['verhoeff', 'damm', 'iso7064-mod11-2', 'iso7064-mod97-10']) {
      await fc.assert(
        fc.asyncProperty(digits(1, 40), fc.nat(), async (payload, at) => {
          const { result } = await compute(payload, scheme)
          const index = at % (result.length - 1)
          fc.pre(result[index] !== result[index + 1] && result[index] !== 'X' && result[index + 1] !== 'X')
          const swapped = result.slice(0, index) + result[index + 1] + result[index] + result.slice(index + 2)
          assert.equal((await validate(swapped, scheme)).valid, false, `${scheme}: ${result} → ${swapped}`)
        }),
        { numRuns: 300 },
      )
    }
  })

  test('exhaustively over two digits: Verhoeff and Damm catch all 90 adjacent transpositions a·b → b·a in any context', () => {
    for (const scheme of [verhoeffCheckDigit, dammCheckDigit]) {
      for (let a = 0; a < 10; a++) {
        for (let b = 0; b < 10; b++) {
          if (a === b) continue
          for (const context of ['', '7', '31', '4159']) assert.notEqual(scheme(`${context}${a}${b}`), scheme(`${context}${b}${a}`), `${context}${a}${b}`)
        }
      }
    }
  })

  test('a GTIN keeps its check digit under leading zeros (GTIN-8/12/13 are GTIN-14 padded on the left)', () => {
    fc.assert(
      fc.property(digits(7, 13), (payload) => {
        assert.equal(gs1CheckDigit(payload), gs1CheckDigit(payload.padStart(13, '0')))
      }),
    )
  })

  test('the pure functions answer one check character (two for MOD 97-10) of the right alphabet', () => {
    fc.assert(
      fc.property(digits(1, 63), (payload) => {
        for (const check of [luhnCheckDigit, gs1CheckDigit, verhoeffCheckDigit, dammCheckDigit]) assert.match(check(payload), /^[0-9]$/)
        assert.match(mod11_2CheckDigit(payload), /^[0-9X]$/)
        assert.match(mod97_10CheckDigits(payload), /^[0-9]{2}$/)
      }),
    )
  })
})

describe('check-digit: separators', () => {
  test('spaces, hyphens, tabs and line breaks are ignored (a number read from a file ends in one); positions stay those of the input', async () => {
    for (const written of ['4111111111111111\n', '4111 1111 1111 1111\r\n', '4111-1111\t1111-1111', '\n4111\n1111\n1111\n1111']) {
      const answer = await validate(written, 'card')
      assert.deepEqual([answer.valid, answer.result], [true, '4111111111111111'], JSON.stringify(written))
    }
    await expectRefusal(validate('4111\n1111\u00a01111 1111', 'card'), { code: 'INVALID_INPUT', position: 9 })
  })
})

describe('check-digit: refusals', () => {
  test('a character that is not a digit: 422 with its position in the input as given', async () => {
    await expectRefusal(validate('4111 1111 a111 1111', 'card'), { code: 'INVALID_INPUT', position: 10, message: /'a' at position 10/ })
    await expectRefusal(validate('12.34', 'luhn'), { code: 'INVALID_INPUT', position: 2 })
    await expectRefusal(validate('1234567890١', 'luhn'), { code: 'INVALID_INPUT', position: 10 })
  })

  test('X only as the check character of the schemes that allow it, never in compute', async () => {
    await expectRefusal(validate('08044X9573', 'isbn10'), { code: 'INVALID_INPUT', position: 5, message: /X as the check digit only/ })
    await expectRefusal(validate('7992739871X', 'luhn'), { code: 'INVALID_INPUT', position: 10 })
    await expectRefusal(compute('08044295X', 'isbn10'), { code: 'INVALID_INPUT', position: 8 })
    await expectRefusal(validate('9780306406X5', 'isbn13'), { code: 'INVALID_INPUT' })
    await expectRefusal(validate('5493001KJTIIGC8Y1R1A', 'iso7064-mod97-10'), { code: 'INVALID_INPUT', position: 19, message: /two check digits/ })
  })

  test('a length the scheme does not take: 422 naming the lengths allowed', async () => {
    await expectRefusal(validate('123456789012', 'isbn'), { code: 'INVALID_INPUT', message: /10 or 13 characters/, details: { length: 12, allowed: [10, 13] } })
    await expectRefusal(validate('4006381333', 'gtin'), { code: 'INVALID_INPUT', details: { allowed: [8, 12, 13, 14] } })
    await expectRefusal(compute('4006381333', 'gtin'), { code: 'INVALID_INPUT', details: { allowed: [7, 11, 12, 13] }, message: /without its check digit/ })
    await expectRefusal(validate('400638133393', 'ean13'), { code: 'INVALID_INPUT', message: /ean13 takes 13 characters/, details: { allowed: [13] } })
    await expectRefusal(validate('4111111', 'card'), { code: 'INVALID_INPUT', details: { allowed: { min: 8, max: 19 } } })
    await expectRefusal(validate('4'.repeat(20), 'card'), { code: 'INVALID_INPUT', message: /8 to 19 characters/ })
    await expectRefusal(validate('7', 'luhn'), { code: 'INVALID_INPUT', details: { allowed: { min: 2, max: 64 } } })
    await expectRefusal(validate('12', 'iso7064-mod97-10'), { code: 'INVALID_INPUT', details: { allowed: { min: 3, max: 64 } } })
    await expectRefusal(validate(' - - ', 'luhn'), { code: 'INVALID_INPUT', details: { length: 0 } })
  })

  test('an ISBN-13 that does not begin with 978 or 979: 422 at its first digit', async () => {
    await expectRefusal(validate(' 4006381333931', 'isbn'), { code: 'INVALID_INPUT', position: 1, message: /978 or 979/ })
  })

  test('what the schema forbids: 400', async () => {
    await expectRefusal(run({ input: '1'.repeat(65) }), { code: 'VALIDATION_ERROR', field: 'input' })
    await expectRefusal(run({ input: '' }), { code: 'VALIDATION_ERROR', field: 'input' })
    await expectRefusal(run({ input: '79927398713', scheme: 'mod10' }), { code: 'VALIDATION_ERROR', field: 'scheme' })
    await expectRefusal(run({ input: '79927398713', action: 'generate' }), { code: 'VALIDATION_ERROR', field: 'action' })
    await expectRefusal(run({ input: 79927398713 }), { code: 'VALIDATION_ERROR', field: 'input' })
  })

  test('card numbers are personal data: the input is a writeOnly field, never logged nor put in a shared link', () => {
    assert.equal((checkDigit.input.properties.input as { writeOnly?: boolean }).writeOnly, true)
  })

  test('hostile inputs are answered at once: 64 characters of every kind, under every scheme', async () => {
    const inputs = ['9'.repeat(64), 'X'.repeat(64), '-'.repeat(64), 'Z'.repeat(64), '\u{1F4B3}'.repeat(32), `${'0'.repeat(63)}X`]
    const elapsed = await cpuTimeOfAsync(async () => {
      for (const scheme of SCHEMES) {
        for (const input of inputs) {
          for (const action of ['validate', 'compute'])
            await run({ input, scheme, action }).catch((error: { code?: string }) => assert.equal(error.code, 'INVALID_INPUT'))
        }
      }
    })
    assert.ok(elapsed < 1000, `${elapsed} ms`)
  })
})
