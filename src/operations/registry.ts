import type { AnyOperation } from '../core/operation.ts'

/**
 * THE registry: every operation by name, alphabetical, each loaded only when asked for, with its own
 * libraries (a chunk of its own in the build). A server loads an operation with its first call, a
 * one-shot `devutils <name>` that one alone, so that neither's start grows with the registry; what
 * they list and document of the others comes from infos.ts. index.ts loads them all.
 */
export const operationLoaders = {
  barcode: () => import('./barcode/index.ts').then((module) => module.barcode),
  'base-convert': () => import('./base-convert/index.ts').then((module) => module.baseConvert),
  'base-encoding': () => import('./base-encoding/index.ts').then((module) => module.baseEncoding),
  base32: () => import('./base32/index.ts').then((module) => module.base32),
  base64: () => import('./base64/index.ts').then((module) => module.base64),
  'binary-text': () => import('./binary-text/index.ts').then((module) => module.binaryText),
  case: () => import('./case/index.ts').then((module) => module.caseOperation),
  'check-digit': () => import('./check-digit/index.ts').then((module) => module.checkDigit),
  checksum: () => import('./checksum/index.ts').then((module) => module.checksum),
  chmod: () => import('./chmod/index.ts').then((module) => module.chmod),
  cipher: () => import('./cipher/index.ts').then((module) => module.cipher),
  color: () => import('./color/index.ts').then((module) => module.color),
  compress: () => import('./compress/index.ts').then((module) => module.compress),
  cron: () => import('./cron/index.ts').then((module) => module.cron),
  'csv-json': () => import('./csv-json/index.ts').then((module) => module.csvJson),
  datetime: () => import('./datetime/index.ts').then((module) => module.datetime),
  detect: () => import('./recognisers.ts').then((module) => module.detect),
  diff: () => import('./diff/index.ts').then((module) => module.diff),
  'docker-compose': () => import('./docker-compose/index.ts').then((module) => module.dockerCompose),
  extract: () => import('./extract/index.ts').then((module) => module.extract),
  format: () => import('./format/index.ts').then((module) => module.format),
  hash: () => import('./hash/index.ts').then((module) => module.hash),
  'hex-text': () => import('./hex-text/index.ts').then((module) => module.hexText),
  hmac: () => import('./hmac/index.ts').then((module) => module.hmac),
  'html-entity': () => import('./html-entity/index.ts').then((module) => module.htmlEntity),
  htpasswd: () => import('./htpasswd/index.ts').then((module) => module.htpasswd),
  iban: () => import('./iban/index.ts').then((module) => module.iban),
  id: () => import('./id/index.ts').then((module) => module.id),
  idn: () => import('./idn/index.ts').then((module) => module.idn),
  'ip-address': () => import('./ip-address/index.ts').then((module) => module.ipAddress),
  jq: () => import('./jq/index.ts').then((module) => module.jq),
  json: () => import('./json/index.ts').then((module) => module.json),
  'json-escape': () => import('./json-escape/index.ts').then((module) => module.jsonEscape),
  'json-patch': () => import('./json-patch/index.ts').then((module) => module.jsonPatch),
  'json-schema': () => import('./json-schema/index.ts').then((module) => module.jsonSchema),
  'json-types': () => import('./json-types/index.ts').then((module) => module.jsonTypes),
  jwt: () => import('./jwt/index.ts').then((module) => module.jwt),
  key: () => import('./key/index.ts').then((module) => module.key),
  lines: () => import('./lines/index.ts').then((module) => module.lines),
  lookup: () => import('./lookup/index.ts').then((module) => module.lookup),
  'lorem-ipsum': () => import('./lorem-ipsum/index.ts').then((module) => module.loremIpsum),
  'mac-address': () => import('./mac-address/index.ts').then((module) => module.macAddress),
  markdown: () => import('./markdown/index.ts').then((module) => module.markdown),
  morse: () => import('./morse/index.ts').then((module) => module.morse),
  otp: () => import('./otp/index.ts').then((module) => module.otp),
  password: () => import('./password/index.ts').then((module) => module.password),
  'password-hash': () => import('./password-hash/index.ts').then((module) => module.passwordHash),
  phone: () => import('./phone/index.ts').then((module) => module.phone),
  'qr-code': () => import('./qr-code/index.ts').then((module) => module.qrCode),
  'random-number': () => import('./random-number/index.ts').then((module) => module.randomNumber),
  'random-string': () => import('./random-string/index.ts').then((module) => module.randomString),
  regex: () => import('./regex/index.ts').then((module) => module.regex),
  rot13: () => import('./rot13/index.ts').then((module) => module.rot13),
  slug: () => import('./slug/index.ts').then((module) => module.slug),
  'sql-escape': () => import('./sql-escape/index.ts').then((module) => module.sqlEscape),
  'string-escape': () => import('./string-escape/index.ts').then((module) => module.stringEscape),
  subnet: () => import('./subnet/index.ts').then((module) => module.subnet),
  'text-distance': () => import('./text-distance/index.ts').then((module) => module.textDistance),
  'text-stats': () => import('./text-stats/index.ts').then((module) => module.textStats),
  timestamp: () => import('./timestamp/index.ts').then((module) => module.timestamp),
  'toml-json': () => import('./toml-json/index.ts').then((module) => module.tomlJson),
  unicode: () => import('./unicode/index.ts').then((module) => module.unicode),
  units: () => import('./units/index.ts').then((module) => module.units),
  url: () => import('./url/index.ts').then((module) => module.url),
  'url-parse': () => import('./url-parse/index.ts').then((module) => module.urlParse),
  'user-agent': () => import('./user-agent/index.ts').then((module) => module.userAgent),
  uuid: () => import('./uuid/index.ts').then((module) => module.uuid),
  x509: () => import('./x509/index.ts').then((module) => module.x509),
  'xml-json': () => import('./xml-json/index.ts').then((module) => module.xmlJson),
  'yaml-json': () => import('./yaml-json/index.ts').then((module) => module.yamlJson),
} as const satisfies Record<string, () => Promise<AnyOperation>>

export type RegisteredName = keyof typeof operationLoaders

/** One operation of the registry by name, loaded alone; undefined for a name that is not one. */
export function loadOperation(name: string): Promise<AnyOperation> | undefined {
  return Object.hasOwn(operationLoaders, name) ? operationLoaders[name as RegisteredName]() : undefined
}
