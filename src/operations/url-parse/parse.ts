/** Parsing: the input (against its base) to a URL record, and the record described part by part. */

import type { URLRecord } from 'whatwg-url'
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { authorityOf, C0_OR_SPACE, cleaned, diagnose, TAB_OR_NEWLINE } from './diagnosis.ts'
import type { Engines } from './index.ts'
import { formPairs, queryPairsOver } from './query.ts'
import { type ACTIONS, type Answer, MAX_QUERY_PAIRS } from './schemas.ts'
import { hostTypeOf, isSpecialScheme, SPECIAL_PORTS } from './special-schemes.ts'

/** How many times over the answer holds the URL, at most: href, result, the parts, and their decoded forms. */
const URL_COPIES_IN_ANSWER = 4

/** The URL API's getters over a URL record, and the fields the API does not give. */
export function describe({ whatwg, tr46 }: Engines, url: URLRecord, action: (typeof ACTIONS)[number], warnings: string[]): Answer {
  const href = whatwg.serializeURL(url)
  assertOutputWithinLimit(URL_COPIES_IN_ANSWER * Buffer.byteLength(href))
  if (url.query !== null && queryPairsOver(url.query, MAX_QUERY_PAIRS)) {
    throw limitExceeded(`The query has more than ${MAX_QUERY_PAIRS} pairs`, { field: 'query', limit: MAX_QUERY_PAIRS })
  }
  const hostname = url.host === null ? '' : whatwg.serializeHost(url.host)
  const hostType = hostTypeOf(url)
  const port = url.port === null ? '' : String(url.port)
  const search = url.query === null || url.query === '' ? '' : `?${url.query}`
  const defaultPort = SPECIAL_PORTS[url.scheme]
  // A domain whose xn-- labels do not decode keeps its ASCII form.
  const unicode =
    hostType === 'domain'
      ? tr46.toUnicode(hostname, { checkBidi: true, checkJoiners: true, useSTD3ASCIIRules: false, transitionalProcessing: false })
      : undefined
  const hostnameUnicode = unicode === undefined || unicode.error || unicode.domain === '' ? hostname : unicode.domain
  if (url.username !== '' || url.password !== '') warnings.push('The URL holds credentials (a username or password): treat it as a secret.')
  return {
    result: href,
    action,
    href,
    origin: whatwg.serializeURLOrigin(url),
    protocol: `${url.scheme}:`,
    username: url.username,
    password: url.password,
    host: url.host === null ? '' : url.port === null ? hostname : `${hostname}:${port}`,
    hostname,
    hostnameUnicode,
    hostType,
    port,
    effectivePort: url.port ?? defaultPort ?? null,
    pathname: whatwg.serializePath(url),
    pathSegments: typeof url.path === 'string' ? [] : [...url.path],
    search,
    query: url.query === null ? [] : formPairs(whatwg, url.query),
    hash: url.fragment === null || url.fragment === '' ? '' : `#${url.fragment}`,
    special: isSpecialScheme(url.scheme),
    opaquePath: typeof url.path === 'string',
    warnings,
  }
}

/** Parses input (against base), or refuses it saying why; notes what the parser changed. */
export function parseInput(engines: Engines, input: string, base: string | undefined): { url: URLRecord; warnings: string[] } {
  const { whatwg } = engines
  let baseURL: URLRecord | null = null
  if (base !== undefined) {
    baseURL = whatwg.basicURLParse(base)
    if (baseURL === null) {
      const { validationErrors } = whatwg.parseURLWithValidationErrors(base)
      const why = diagnose(base, validationErrors, null, false)
      throw invalidInput(
        `base is not a valid absolute URL: ${why.message.replace(/^input is not an absolute URL/, 'it is not an absolute URL').replace(/; give base.*$/, '')}`,
        {
          ...(why.details as Record<string, unknown>),
          field: 'base',
          component: 'base',
        },
      )
    }
  }
  const { url, validationErrors } = whatwg.parseURLWithValidationErrors(input, { baseURL })
  if (url === null) throw diagnose(input, validationErrors, baseURL, base !== undefined)
  const warnings: string[] = []
  if (input.replace(C0_OR_SPACE, '') !== input) warnings.push('Leading or trailing spaces and control characters were removed.')
  if (TAB_OR_NEWLINE.test(input.replace(C0_OR_SPACE, ''))) warnings.push('Tab and newline characters inside the URL were removed.')
  if (validationErrors.includes('invalid-reverse-solidus')) warnings.push('A backslash (\\) was read as a slash (/), as for every special scheme.')
  const authority = authorityOf(cleaned(input).text)
  if (authority !== undefined && /^[0-9]+$/.test(authority.port ?? '') && url.port === null && url.host !== null && isSpecialScheme(url.scheme)) {
    warnings.push(`The port ${Number(authority.port)} is the default for ${url.scheme}: and was dropped.`)
  }
  if (authority !== undefined && hostTypeOf(url) === 'domain' && typeof url.host === 'string' && url.host !== authority.host.toLowerCase()) {
    warnings.push('The host was mapped to its ASCII form by IDNA (UTS #46) and percent-decoding.')
  }
  return { url, warnings }
}
