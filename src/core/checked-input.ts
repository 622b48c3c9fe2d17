import { assertSafeValue } from './inspect.ts'
import type { AnyOperation } from './operation.ts'
import { validate } from './validate.ts'

/** The raw input validated, with its defaults, and checked for what a schema cannot see (depth, lone surrogates). */
export function checkedInput(operation: AnyOperation, rawInput: unknown): Record<string, unknown> {
  const input = validate<Record<string, unknown>>(operation.input, rawInput)
  if (!operation.checksEachCall) {
    const { plain, secret, secretFields } = fieldChecksOf(operation)
    for (const field in input) assertSafeValue(input[field], field, secretFields.has(field) ? secret : plain)
  }
  return input
}

type SafeValueOptions = Parameters<typeof assertSafeValue>[2]

const fieldChecks = new WeakMap<AnyOperation, { plain: SafeValueOptions; secret: SafeValueOptions; secretFields: ReadonlySet<string> }>()

/** How an operation's input fields are checked (their text, and which are secrets), worked out once. */
function fieldChecksOf(operation: AnyOperation) {
  let checks = fieldChecks.get(operation)
  if (checks === undefined) {
    const checkText = !operation.allowLoneSurrogates
    const properties = Object.entries(operation.input.properties as Record<string, { writeOnly?: boolean }>)
    checks = {
      plain: { checkText, secret: false },
      secret: { checkText, secret: true },
      secretFields: new Set(properties.filter(([, property]) => property.writeOnly === true).map(([field]) => field)),
    }
    fieldChecks.set(operation, checks)
  }
  return checks
}
