import type { AnyOperation } from '../core/operation.ts'
import { barcode } from './barcode/index.ts'
import { baseConvert } from './base-convert/index.ts'
import { baseEncoding } from './base-encoding/index.ts'
import { base32 } from './base32/index.ts'
import { base64 } from './base64/index.ts'
import { binaryText } from './binary-text/index.ts'
import { caseOperation } from './case/index.ts'
import { checkDigit } from './check-digit/index.ts'
import { checksum } from './checksum/index.ts'
import { chmod } from './chmod/index.ts'
import { cipher } from './cipher/index.ts'
import { color } from './color/index.ts'
import { compress } from './compress/index.ts'
import { cron } from './cron/index.ts'
import { csvJson } from './csv-json/index.ts'
import { datetime } from './datetime/index.ts'
import { diff } from './diff/index.ts'
import { dockerCompose } from './docker-compose/index.ts'
import { extract } from './extract/index.ts'
import { format } from './format/index.ts'
import { hash } from './hash/index.ts'
import { hexText } from './hex-text/index.ts'
import { hmac } from './hmac/index.ts'
import { htmlEntity } from './html-entity/index.ts'
import { htpasswd } from './htpasswd/index.ts'
import { iban } from './iban/index.ts'
import { id } from './id/index.ts'
import { idn } from './idn/index.ts'
import { ipAddress } from './ip-address/index.ts'
import { jq } from './jq/index.ts'
import { json } from './json/index.ts'
import { jsonEscape } from './json-escape/index.ts'
import { jsonPatch } from './json-patch/index.ts'
import { jsonSchema } from './json-schema/index.ts'
import { jsonTypes } from './json-types/index.ts'
import { jwt } from './jwt/index.ts'
import { key } from './key/index.ts'
import { lines } from './lines/index.ts'
import { lookup } from './lookup/index.ts'
import { loremIpsum } from './lorem-ipsum/index.ts'
import { macAddress } from './mac-address/index.ts'
import { markdown } from './markdown/index.ts'
import { morse } from './morse/index.ts'
import { otp } from './otp/index.ts'
import { password } from './password/index.ts'
import { passwordHash } from './password-hash/index.ts'
import { phone } from './phone/index.ts'
import { qrCode } from './qr-code/index.ts'
import { randomNumber } from './random-number/index.ts'
import { randomString } from './random-string/index.ts'
import { detect } from './recognisers.ts'
import { regex } from './regex/index.ts'
import { rot13 } from './rot13/index.ts'
import { slug } from './slug/index.ts'
import { sqlEscape } from './sql-escape/index.ts'
import { stringEscape } from './string-escape/index.ts'
import { subnet } from './subnet/index.ts'
import { textDistance } from './text-distance/index.ts'
import { textStats } from './text-stats/index.ts'
import { timestamp } from './timestamp/index.ts'
import { tomlJson } from './toml-json/index.ts'
import { unicode } from './unicode/index.ts'
import { units } from './units/index.ts'
import { url } from './url/index.ts'
import { urlParse } from './url-parse/index.ts'
import { userAgent } from './user-agent/index.ts'
import { uuid } from './uuid/index.ts'
import { x509 } from './x509/index.ts'
import { xmlJson } from './xml-json/index.ts'
import { yamlJson } from './yaml-json/index.ts'

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
