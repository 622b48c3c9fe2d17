import type { AnyOperation } from '../core/operation.ts'
import { barcode } from './barcode.ts'
import { baseConvert } from './base-convert.ts'
import { baseEncoding } from './base-encoding.ts'
import { base32 } from './base32.ts'
import { base64 } from './base64.ts'
import { binaryText } from './binary-text.ts'
import { caseOperation } from './case.ts'
import { checkDigit } from './check-digit.ts'
import { checksum } from './checksum.ts'
import { chmod } from './chmod.ts'
import { cipher } from './cipher.ts'
import { color } from './color.ts'
import { compress } from './compress.ts'
import { cron } from './cron.ts'
import { csvJson } from './csv-json.ts'
import { datetime } from './datetime.ts'
import { detect } from './detect.ts'
import { diff } from './diff.ts'
import { dockerCompose } from './docker-compose.ts'
import { extract } from './extract.ts'
import { format } from './format.ts'
import { hash } from './hash.ts'
import { hexText } from './hex-text.ts'
import { hmac } from './hmac.ts'
import { htmlEntity } from './html-entity.ts'
import { htpasswd } from './htpasswd.ts'
import { iban } from './iban.ts'
import { id } from './id.ts'
import { idn } from './idn.ts'
import { ipAddress } from './ip-address.ts'
import { jq } from './jq.ts'
import { json } from './json.ts'
import { jsonEscape } from './json-escape.ts'
import { jsonPatch } from './json-patch.ts'
import { jsonSchema } from './json-schema.ts'
import { jsonTypes } from './json-types.ts'
import { jwt } from './jwt.ts'
import { key } from './key.ts'
import { lines } from './lines.ts'
import { lookup } from './lookup.ts'
import { loremIpsum } from './lorem-ipsum.ts'
import { macAddress } from './mac-address.ts'
import { markdown } from './markdown.ts'
import { morse } from './morse.ts'
import { otp } from './otp.ts'
import { password } from './password.ts'
import { passwordHash } from './password-hash.ts'
import { phone } from './phone.ts'
import { qrCode } from './qr-code.ts'
import { randomNumber } from './random-number.ts'
import { randomString } from './random-string.ts'
import { regex } from './regex.ts'
import { rot13 } from './rot13.ts'
import { slug } from './slug.ts'
import { sqlEscape } from './sql-escape.ts'
import { stringEscape } from './string-escape.ts'
import { subnet } from './subnet.ts'
import { textDistance } from './text-distance.ts'
import { textStats } from './text-stats.ts'
import { timestamp } from './timestamp.ts'
import { tomlJson } from './toml-json.ts'
import { unicode } from './unicode.ts'
import { units } from './units.ts'
import { url } from './url.ts'
import { urlParse } from './url-parse.ts'
import { userAgent } from './user-agent.ts'
import { uuid } from './uuid.ts'
import { x509 } from './x509.ts'
import { xmlJson } from './xml-json.ts'
import { yamlJson } from './yaml-json.ts'

/**
 * Every operation, loaded: for the surfaces that serve them all (the server, MCP, the worker threads).
 * Each operation's own schemas and name stay in its type, for the typed client. registry.ts loads
 * them one at a time, for a surface that serves one (`devutils <name>`); test/registry.test.ts holds
 * the two lists to the same operations in the same order.
 */
export const typedOperations = [
  barcode,
  baseConvert,
  baseEncoding,
  base32,
  base64,
  binaryText,
  caseOperation,
  checkDigit,
  checksum,
  chmod,
  cipher,
  color,
  compress,
  cron,
  csvJson,
  datetime,
  detect,
  diff,
  dockerCompose,
  extract,
  format,
  hash,
  hexText,
  hmac,
  htmlEntity,
  htpasswd,
  iban,
  id,
  idn,
  ipAddress,
  jq,
  json,
  jsonEscape,
  jsonPatch,
  jsonSchema,
  jsonTypes,
  jwt,
  key,
  lines,
  lookup,
  loremIpsum,
  macAddress,
  markdown,
  morse,
  otp,
  password,
  passwordHash,
  phone,
  qrCode,
  randomNumber,
  randomString,
  regex,
  rot13,
  slug,
  sqlEscape,
  stringEscape,
  subnet,
  textDistance,
  textStats,
  timestamp,
  tomlJson,
  unicode,
  units,
  url,
  urlParse,
  userAgent,
  uuid,
  x509,
  xmlJson,
  yamlJson,
] as const

/** Every surface that serves them all is a loop over this list. */
export const operations: readonly AnyOperation[] = typedOperations
export const operationsByName: ReadonlyMap<string, AnyOperation> = new Map(operations.map((operation) => [operation.name, operation]))
