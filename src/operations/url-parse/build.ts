/** Building: the components applied to a URL, one of the URL Standard's setters each, in the Standard's order. */

import type { StateOverride, URLRecord } from 'whatwg-url'
import { type DevutilsError, invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import type { Engines } from './index.ts'
import { parseInput } from './parse.ts'
import { type FormPair, formText } from './query.ts'
import { type ComponentValues, MAX_URL_LENGTH } from './schemas.ts'
import { isSpecialScheme } from './special-schemes.ts'

/** The setters of the URL Standard, in the order they are applied. */
const SETTERS = ['protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'query', 'hash'] as const
type Setter = (typeof SETTERS)[number]

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*/

/** What a setter works with: the URL, the value, the parser from a state, and the refusal that names the setter. */
interface Setting {
  whatwg: Engines['whatwg']
  url: URLRecord
  setter: Setter
  value: string | FormPair[]
  parse: (text: string, stateOverride: StateOverride) => boolean
  ignored: (why: string) => DevutilsError
}

/** Applies one of the URL Standard's setters, refusing (rather than ignoring, as the Standard does) what cannot be set. */
function set({ whatwg }: Engines, url: URLRecord, setter: Setter, raw: string | number | FormPair[]): void {
  const setting: Setting = {
    whatwg,
    url,
    setter,
    value: typeof raw === 'number' ? String(raw) : raw,
    parse: (text, stateOverride) => whatwg.basicURLParse(text, { url, stateOverride }) !== null,
    ignored: (why) => invalidInput(`${setter} cannot be set: ${why}`, { field: `components.${setter}`, component: setter }),
  }
  APPLY[setter](setting)
}

/** Each setter's rules; host and hostname share theirs, as do username and password, and search and query. */
const APPLY: Record<Setter, (setting: Setting) => void> = {
  protocol: setProtocol,
  username: setCredential,
  password: setCredential,
  host: setHost,
  hostname: setHost,
  port: setPort,
  pathname: setPathname,
  search: setQuery,
  query: setQuery,
  hash: setHash,
}

function setProtocol({ url, value, parse, ignored }: Setting): void {
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*(?=:|$)/.exec((value as string).replace(/[\t\n\r]/g, ''))?.[0].toLowerCase()
  if (scheme === undefined) throw ignored('it is not a scheme (a letter, then letters, digits, +, - or .)')
  if (isSpecialScheme(url.scheme) !== isSpecialScheme(scheme)) {
    throw ignored(`the URL Standard does not switch between a special scheme (http, https, ws, wss, ftp, file) and another (${url.scheme}: to ${scheme}:)`)
  }
  const hasCredentials = url.username !== '' || url.password !== ''
  if (scheme === 'file' && (hasCredentials || url.port !== null)) throw ignored('a file: URL cannot have a username, a password or a port')
  if (url.scheme === 'file' && url.host === '' && scheme !== 'file') throw ignored('a file: URL with an empty host cannot change its scheme')
  if (!parse(`${value}:`, 'scheme start')) throw ignored('it is not a scheme (a letter, then letters, digits, +, - or .)')
}

function setCredential({ whatwg, url, setter, value, ignored }: Setting): void {
  if (whatwg.cannotHaveAUsernamePasswordPort(url))
    throw ignored(url.scheme === 'file' ? 'a file: URL cannot have credentials' : 'a URL without a host cannot have credentials')
  if (setter === 'username') whatwg.setTheUsername(url, value as string)
  else whatwg.setThePassword(url, value as string)
}

function setHost({ whatwg, url, setter, value, parse, ignored }: Setting): void {
  if (whatwg.hasAnOpaquePath(url)) throw ignored(`a URL with an opaque path (as ${url.scheme}: has) cannot have a host`)
  const hostBefore = url.host
  if (parse(value as string, setter as 'host' | 'hostname')) return
  // The Standard sets the host before it reads the port, and keeps the old port when that fails.
  if (url.host !== hostBefore) throw ignored('what follows the colon is not a port (digits, at most 65535); give the port in port, or leave it out')
  throw ignored(
    (value as string) === ''
      ? 'the host is empty, which a special scheme or a URL with credentials or a port does not allow'
      : setter === 'hostname' && (value as string).includes(':') && !(value as string).startsWith('[')
        ? 'a hostname cannot hold a port (give host, or port)'
        : 'it is not a valid host (a forbidden code point, a malformed IP address, or a domain IDNA cannot map)',
  )
}

function setPort({ whatwg, url, value, parse, ignored }: Setting): void {
  if (whatwg.cannotHaveAUsernamePasswordPort(url))
    throw ignored(url.scheme === 'file' ? 'a file: URL cannot have a port' : 'a URL without a host cannot have a port')
  if (value === '') url.port = null
  else if (!parse(value as string, 'port')) throw ignored('it is not a port (digits, at most 65535)')
}

function setPathname({ whatwg, url, value, parse, ignored }: Setting): void {
  if (whatwg.hasAnOpaquePath(url)) throw ignored(`the path of a ${url.scheme}: URL is opaque`)
  url.path = []
  parse(value as string, 'path start')
}

function setQuery({ url, setter, value, parse }: Setting): void {
  const text = setter === 'query' ? formText(value as FormPair[]) : (value as string).replace(/^\?/, '')
  // Percent-encoding triples a pair's text; the parser then works through it character by character.
  if (text.length > MAX_URL_LENGTH) {
    throw limitExceeded(`The query pairs encode to ${text.length} characters, more than the ${MAX_URL_LENGTH} a URL may have here`, {
      field: 'components.query',
      limit: MAX_URL_LENGTH,
    })
  }
  if (text === '' && (setter === 'query' || value === '')) {
    url.query = null
    return
  }
  url.query = ''
  parse(text, 'query')
}

function setHash({ url, value, parse }: Setting): void {
  if (value === '') {
    url.fragment = null
    return
  }
  url.fragment = ''
  parse((value as string).replace(/^#/, ''), 'fragment')
}

export function build(
  engines: Engines,
  input: string | undefined,
  base: string | undefined,
  components: ComponentValues,
): { url: URLRecord; warnings: string[] } {
  if (components.search !== undefined && components.query !== undefined)
    throw validationError('components', 'cannot hold both search and query: query replaces search')
  let start: { url: URLRecord; warnings: string[] }
  if (input !== undefined) start = parseInput(engines, input, base)
  else {
    if (components.protocol === undefined) throw validationError('components', 'must hold protocol when there is no input to modify')
    const scheme = SCHEME.exec(components.protocol)?.[0].toLowerCase()
    if (scheme !== 'file' && components.hostname === undefined && components.host === undefined) {
      throw validationError('components', 'must hold hostname (or host) when there is no input to modify, unless protocol is file')
    }
    if (scheme === undefined)
      throw invalidInput('protocol cannot be set: it is not a scheme (a letter, then letters, digits, +, - or .)', {
        field: 'components.protocol',
        component: 'protocol',
      })
    // A placeholder host, always replaced by the required hostname or host.
    const url = engines.whatwg.basicURLParse(scheme === 'file' ? 'file:///' : `${scheme}://host`)
    if (url === null) throw invalidInput('protocol cannot be set: it is not a scheme', { field: 'components.protocol', component: 'protocol' })
    start = { url, warnings: [] }
  }
  for (const setter of SETTERS) {
    const value = components[setter]
    if (value !== undefined) set(engines, start.url, setter, value as string | number | FormPair[])
  }
  return start
}
