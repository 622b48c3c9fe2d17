import type { AnyOperation } from '../core/operation.ts'

/**
 * Every operation by name, alphabetical, each loaded only when asked for, with its own libraries: a
 * surface that serves one operation (a one-shot `devutils <name>`) loads that one alone, so that its
 * cost does not grow with the registry. index.ts imports them all at once, statically: a worker
 * thread under the tsx loader (the tests) cannot import a TypeScript module dynamically.
 */
export const operationLoaders = {
  barcode: () => import('./barcode.ts').then((module) => module.barcode),
  'base-convert': () => import('./base-convert.ts').then((module) => module.baseConvert),
  'base-encoding': () => import('./base-encoding.ts').then((module) => module.baseEncoding),
  base32: () => import('./base32.ts').then((module) => module.base32),
  base64: () => import('./base64.ts').then((module) => module.base64),
  'binary-text': () => import('./binary-text.ts').then((module) => module.binaryText),
  case: () => import('./case.ts').then((module) => module.caseOperation),
  'check-digit': () => import('./check-digit.ts').then((module) => module.checkDigit),
  checksum: () => import('./checksum.ts').then((module) => module.checksum),
  chmod: () => import('./chmod.ts').then((module) => module.chmod),
  cipher: () => import('./cipher.ts').then((module) => module.cipher),
  color: () => import('./color.ts').then((module) => module.color),
  compress: () => import('./compress.ts').then((module) => module.compress),
  cron: () => import('./cron.ts').then((module) => module.cron),
  'csv-json': () => import('./csv-json.ts').then((module) => module.csvJson),
  datetime: () => import('./datetime.ts').then((module) => module.datetime),
  detect: () => import('./detect.ts').then((module) => module.detect),
  diff: () => import('./diff.ts').then((module) => module.diff),
  'docker-compose': () => import('./docker-compose.ts').then((module) => module.dockerCompose),
  extract: () => import('./extract.ts').then((module) => module.extract),
  format: () => import('./format.ts').then((module) => module.format),
  hash: () => import('./hash.ts').then((module) => module.hash),
  'hex-text': () => import('./hex-text.ts').then((module) => module.hexText),
  hmac: () => import('./hmac.ts').then((module) => module.hmac),
  'html-entity': () => import('./html-entity.ts').then((module) => module.htmlEntity),
  htpasswd: () => import('./htpasswd.ts').then((module) => module.htpasswd),
  iban: () => import('./iban.ts').then((module) => module.iban),
  id: () => import('./id.ts').then((module) => module.id),
  idn: () => import('./idn.ts').then((module) => module.idn),
  'ip-address': () => import('./ip-address.ts').then((module) => module.ipAddress),
  jq: () => import('./jq.ts').then((module) => module.jq),
  json: () => import('./json.ts').then((module) => module.json),
  'json-escape': () => import('./json-escape.ts').then((module) => module.jsonEscape),
  'json-patch': () => import('./json-patch.ts').then((module) => module.jsonPatch),
  'json-schema': () => import('./json-schema.ts').then((module) => module.jsonSchema),
  'json-types': () => import('./json-types.ts').then((module) => module.jsonTypes),
  jwt: () => import('./jwt.ts').then((module) => module.jwt),
  key: () => import('./key.ts').then((module) => module.key),
  lines: () => import('./lines.ts').then((module) => module.lines),
  lookup: () => import('./lookup.ts').then((module) => module.lookup),
  'lorem-ipsum': () => import('./lorem-ipsum.ts').then((module) => module.loremIpsum),
  'mac-address': () => import('./mac-address.ts').then((module) => module.macAddress),
  markdown: () => import('./markdown.ts').then((module) => module.markdown),
  morse: () => import('./morse.ts').then((module) => module.morse),
  otp: () => import('./otp.ts').then((module) => module.otp),
  password: () => import('./password.ts').then((module) => module.password),
  'password-hash': () => import('./password-hash.ts').then((module) => module.passwordHash),
  phone: () => import('./phone.ts').then((module) => module.phone),
  'qr-code': () => import('./qr-code.ts').then((module) => module.qrCode),
  'random-number': () => import('./random-number.ts').then((module) => module.randomNumber),
  'random-string': () => import('./random-string.ts').then((module) => module.randomString),
  regex: () => import('./regex.ts').then((module) => module.regex),
  rot13: () => import('./rot13.ts').then((module) => module.rot13),
  slug: () => import('./slug.ts').then((module) => module.slug),
  'sql-escape': () => import('./sql-escape.ts').then((module) => module.sqlEscape),
  'string-escape': () => import('./string-escape.ts').then((module) => module.stringEscape),
  subnet: () => import('./subnet.ts').then((module) => module.subnet),
  'text-distance': () => import('./text-distance.ts').then((module) => module.textDistance),
  'text-stats': () => import('./text-stats.ts').then((module) => module.textStats),
  timestamp: () => import('./timestamp.ts').then((module) => module.timestamp),
  'toml-json': () => import('./toml-json.ts').then((module) => module.tomlJson),
  unicode: () => import('./unicode.ts').then((module) => module.unicode),
  units: () => import('./units.ts').then((module) => module.units),
  url: () => import('./url.ts').then((module) => module.url),
  'url-parse': () => import('./url-parse.ts').then((module) => module.urlParse),
  'user-agent': () => import('./user-agent.ts').then((module) => module.userAgent),
  uuid: () => import('./uuid.ts').then((module) => module.uuid),
  x509: () => import('./x509.ts').then((module) => module.x509),
  'xml-json': () => import('./xml-json.ts').then((module) => module.xmlJson),
  'yaml-json': () => import('./yaml-json.ts').then((module) => module.yamlJson),
} as const satisfies Record<string, () => Promise<AnyOperation>>

export type RegisteredName = keyof typeof operationLoaders

/** One operation of the registry by name, loaded alone; undefined for a name that is not one. */
export function loadOperation(name: string): Promise<AnyOperation> | undefined {
  return Object.hasOwn(operationLoaders, name) ? operationLoaders[name as RegisteredName]() : undefined
}
