import type { Static } from 'typebox'
import { defineOperation, type OperationExample } from '../../core/operation.ts'
import type { Recogniser } from '../../core/recognise.ts'
import { rankedCandidates } from './rank.ts'
import { detectSchemas } from './schemas.ts'

const ALIASES = [
  'identify',
  'what is this',
  'what is this string',
  'what kind of string',
  'identify string',
  'guess format',
  'recognize',
  'magic',
  'format detection',
  'smart detection',
  'detect encoding',
  'identify hash',
  'hash identifier',
]

/** What detect answers of types, in precedence order: every sentence but the list of types is the same whatever they are. */
const description = (types: readonly string[]) =>
  'Answers "what is this string?": ranked guesses, each with an integer confidence from a fixed table per type (100 when the structure is parsed and consistent, 90–95 a strong format, 70–85 plausible, 40–65 an ambiguous encoding, 20–35 weak), ties broken by a fixed precedence, ' +
  'and `next`: the operation to run with the text and the fields to send it (the text itself goes in `next.field`). ' +
  `Types, in precedence order: ${types.join(', ')}. ` +
  "The text is read trimmed, with devutils' own parsers (the date reader of timestamp, cron, color, json, yaml-json, xml-json, subnet, id, uuid inspect, url-parse's URL Standard parser, jwt decode) and the IANA list of top-level domains. " +
  'Base64, Base64url, hex and Base32 readings are left out when a type of confidence 90 or more covers the whole text. A data URI gives in `details.payloadStart` where its payload starts, which is what its `next` decodes. ' +
  'Answers never depend on the clock: timestamps and embedded times count as plausible between 1990-01-01 and 2100-01-01 (outside it a Unix timestamp ranks 20, and an ObjectId or a ULID 40, since such text is more likely hex or a plain number), and two-digit RFC 850 years are read as of 2000. ' +
  'A PEM text (from its first BEGIN line to its last END line, explanatory text between blocks allowed) of several blocks (a certificate chain) gives the first label and `details.blocks`; its `next` is x509 for certificates, CSRs, CRLs and PKCS#7, key for keys. ' +
  'What ranks 100 is read as its own operation reads it: a bcrypt or PHC string by password-hash’s reader (a bcrypt cost from 4 to 31, whole salts and hashes), an otpauth URI’s secret as Base32, a PEM block with a body, an SSH key whose blob holds exactly the strings of its type. ' +
  'Digits alone are an ISO 8601 basic date (20231127) only inside that window. A text of more than 8,192 characters is YAML only as far as the fast reader of plain YAML goes, and a URL is read up to 16,384 characters: longer ones cost the full readers too long for a guess. ' +
  'Details never copy the text: a JWT gives only its header’s alg, typ and kid; an otpauth URI its type and parameters, never its secret or account. Nothing recognised is `result: null` with no candidates, not an error. ' +
  'POST only, since pasted text often holds tokens.'

const EXAMPLES = [
  {
    summary: 'A Unix timestamp',
    input: { input: '1700000000' },
    output: {
      result: 'unixTimestamp',
      candidates: [
        {
          type: 'unixTimestamp',
          label: 'Unix timestamp',
          confidence: 70,
          details: { unit: 'seconds', time: '2023-11-14T22:13:20.000Z' },
          next: { operation: 'timestamp', fields: { action: 'timestampToDate' }, field: 'input' },
        },
        {
          type: 'hex',
          label: 'Hex bytes',
          confidence: 40,
          details: { bytes: 5 },
          next: { operation: 'hex-text', fields: { action: 'hexToText', encoding: 'latin1' }, field: 'input' },
        },
      ],
    },
  },
  {
    summary: 'A UUID (RFC 9562 Appendix A.6), whose hyphens do not make it Base64url',
    input: { input: '017F22E2-79B0-7CC3-98C4-DC0C0C07398F' },
    output: {
      result: 'uuid',
      candidates: [
        {
          type: 'uuid',
          label: 'UUID (RFC 9562)',
          confidence: 100,
          details: { version: 7, variant: 'rfc9562', time: '2022-02-22T19:22:22.000Z' },
          next: { operation: 'uuid', fields: { action: 'inspect' }, field: 'input' },
        },
      ],
    },
  },
  {
    summary: 'A hex digest: MD5 of the empty string (RFC 1321)',
    input: { input: 'd41d8cd98f00b204e9800998ecf8427e', limit: 1 },
    output: {
      result: 'hash',
      candidates: [
        {
          type: 'hash',
          label: 'Hex digest (hash)',
          confidence: 60,
          details: { bits: 128, candidates: ['md5', 'md4', 'ntlm'] },
          next: { operation: 'hash', fields: { algorithm: 'md5' }, field: 'expected' },
        },
      ],
    },
  },
]

/**
 * detect over these recognisers, in precedence order. The registry hands it every operation's (see
 * src/operations/recognisers.ts), so that detect imports none of them.
 */
export function defineDetect<const Recognisers extends readonly Recogniser[]>(recognisers: Recognisers) {
  type DetectedType = Recognisers[number]['type']
  const types = recognisers.map((recogniser) => recogniser.type as DetectedType)
  const { input, output } = detectSchemas(types)
  // Past the shortest length any recogniser declares, a text may hold the event loop too long.
  const offloadPast = Math.min(...recognisers.map((recogniser) => recogniser.offloadPast ?? Number.POSITIVE_INFINITY))
  return defineOperation({
    name: 'detect',
    category: 'converters',
    summary: 'Identify what a string is: JWT, UUID, hash, timestamp, Base64, JSON, cron, colour and more, with ranked guesses',
    title: 'Detect format',
    aliases: ALIASES,
    description: description(types),
    input,
    output,
    examples: EXAMPLES as Array<OperationExample<typeof input, typeof output>>,
    offload: ({ input }) => input.length > offloadPast,
    async run({ input, limit, minConfidence, types: wanted }): Promise<Static<typeof output>> {
      const candidates = (await rankedCandidates(recognisers, input, wanted)).filter((candidate) => candidate.confidence >= minConfidence).slice(0, limit)
      return { result: candidates[0]?.type ?? null, candidates }
    },
  })
}
