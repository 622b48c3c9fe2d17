/** The URL Standard's special schemes, their default ports, and the kind of host a URL record holds. */

import type { URLRecord } from 'whatwg-url'
import type { HOST_TYPES } from './schemas.ts'

export const SPECIAL_PORTS: Readonly<Record<string, number | null>> = { ftp: 21, file: null, http: 80, https: 443, ws: 80, wss: 443 }
export const isSpecialScheme = (scheme: string) => Object.hasOwn(SPECIAL_PORTS, scheme)

export function hostTypeOf(url: URLRecord): (typeof HOST_TYPES)[number] {
  const { host } = url
  if (host === null || host === '') return 'empty'
  if (typeof host === 'number') return 'ipv4'
  if (Array.isArray(host)) return 'ipv6'
  return isSpecialScheme(url.scheme) ? 'domain' : 'opaque'
}
