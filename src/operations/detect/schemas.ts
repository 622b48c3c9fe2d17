import { Type } from 'typebox'
import { withDefault } from '../../core/operation.ts'

const MAX_INPUT = 65_536

const nextSchema = Type.Union(
  [
    Type.Object({
      operation: Type.String({ description: 'The operation to run next.' }),
      fields: Type.Record(Type.String(), Type.Unknown(), { description: 'The fields to send it besides your text.' }),
      field: Type.String({
        description:
          "The field of that operation that takes your text: `input` for most; `hash` for password-hash, `expected` for hash (a digest to compare with the data you send as `input`), `secret` for otp (which takes the URI's secret parameter, not the URI).",
      }),
    }),
    Type.Null(),
  ],
  { description: 'What to run next with this text, or null where no operation works on this type.' },
)

/** detect's input and output, whose types are the names of the recognisers it is given, in precedence order. */
export function detectSchemas<DetectedType extends string>(types: readonly DetectedType[]) {
  const candidate = Type.Object({
    type: Type.Enum(types, { description: 'The type recognised.' }),
    label: Type.String({ description: 'The type in words.' }),
    confidence: Type.Integer({
      minimum: 0,
      maximum: 100,
      description: 'How sure, 0 to 100, from a fixed table per type: the same text always gets the same number.',
    }),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What the type tells about this text (a version, a time, a key type); never a copy of the text.',
    }),
    next: nextSchema,
  })
  const input = Type.Object(
    {
      input: Type.String({
        minLength: 1,
        maxLength: MAX_INPUT,
        writeOnly: true,
        description: 'The text to identify, 1 to 65,536 characters; white space around it is ignored. It may hold a token or a key: it is never echoed.',
        examples: ['1700000000'],
      }),
      limit: withDefault(Type.Integer({ minimum: 1, maximum: 50, description: 'At most this many candidates, 1 to 50.' }), 5),
      minConfidence: withDefault(Type.Integer({ minimum: 0, maximum: 100, description: 'Leave out candidates below this confidence, 0 to 100.' }), 30),
      types: Type.Optional(
        Type.Array(Type.Enum(types), {
          minItems: 1,
          maxItems: types.length,
          uniqueItems: true,
          description: 'Only consider these types (all by default).',
        }),
      ),
    },
    { additionalProperties: false },
  )
  const output = Type.Object({
    result: Type.Union([Type.Enum(types), Type.Null()], { description: "The first candidate's type, or null when nothing was recognised." }),
    candidates: Type.Array(candidate, { description: 'The guesses, best first: at most `limit`, none below `minConfidence`.' }),
  })
  return { input, output }
}
