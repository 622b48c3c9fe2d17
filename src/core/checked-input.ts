import { validationError } from './errors.ts'
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
  if (operation.refusesOtherActionsFields) refuseOtherActionsFields(operation, rawInput as Record<string, unknown>, String(input.action))
  return input
}

/** Refuses the first field sent (defaults are not) that the chosen action does not read, naming the actions that do. */
function refuseOtherActionsFields(operation: AnyOperation, sent: Record<string, unknown>, action: string): void {
  const actions: NonNullable<AnyOperation['actions']> = operation.actions ?? {}
  const reads = actions[action]?.fields
  if (reads === undefined) return
  for (const field of Object.keys(sent)) {
    if (field === 'action' || reads.includes(field)) continue
    const readers = Object.keys(actions).filter((name) => actions[name].fields.includes(field))
    throw validationError(field, `is only used by action ${readers.join(' and ')}, not by ${action}`)
  }
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
