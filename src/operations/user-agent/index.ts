import { type Static, type TSchema, Type } from 'typebox'
import type UAParser from 'ua-parser-js'
import { commonJsExports } from '../../core/commonjs.ts'
import { validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { defineOperation } from '../../core/operation.ts'
import { type Brand, CLIENT_HINT_HEADERS, type ClientHints, readClientHints } from './hints.ts'

/** ua-parser-js 1.x reads no more of a User-Agent than this (its UA_MAX_LENGTH), after leading white space. */
export const UA_READ_LENGTH = 500
const INPUT_MAX_LENGTH = 8192
const HEADER_MAX_LENGTH = 1024

const DEVICE_TYPES = ['desktop', 'mobile', 'tablet', 'smarttv', 'console', 'wearable', 'xr', 'embedded', 'bot', 'unknown'] as const
type DeviceType = (typeof DEVICE_TYPES)[number]
const SOURCES = ['userAgent', 'clientHints', 'inferred'] as const
type Source = (typeof SOURCES)[number]

// ua-parser-js 1.x is MIT; its 2.x line is AGPL, so the dependency is pinned below 2 on purpose.
const uaParser = lazily(async () => commonJsExports(await import('ua-parser-js')) as unknown as (ua: string) => UAParserResult)
const botDetector = lazily(() => import('isbot'))

type UAParserResult = UAParser.IResult

/** Operating systems whose devices are desktops or laptops, by ua-parser-js's names, in lower case. */
export const DESKTOP_SYSTEMS = new Set(
  [
    'Windows',
    'Mac OS',
    'macOS',
    'Linux',
    'Ubuntu',
    'Kubuntu',
    'Debian',
    'Fedora',
    'Mint',
    'Arch',
    'Gentoo',
    'Slackware',
    'SUSE',
    'Red Hat',
    'RedHat',
    'CentOS',
    'Mandriva',
    'PCLinuxOS',
    'Zenwalk',
    'Linpus',
    'Manjaro',
    'elementary OS',
    'Deepin',
    'Sabayon',
    'Linspire',
    'Raspbian',
    'Chromium OS',
    'Chrome OS',
    'FreeBSD',
    'OpenBSD',
    'NetBSD',
    'DragonFly',
    'GhostBSD',
    'PC-BSD',
    'Solaris',
    'Haiku',
    'BeOS',
    'OS/2',
    'AmigaOS',
    'MorphOS',
    'RISC OS',
    'Unix',
    'AIX',
    'HP-UX',
    'Plan 9',
    'Minix',
    'Hurd',
    'SerenityOS',
    'Android-x86',
  ].map((name) => name.toLowerCase()),
)

/** Client Hints brand names as ua-parser-js names the same browsers, so that both sources agree. */
const BRAND_NAMES: Record<string, string> = {
  'Google Chrome': 'Chrome',
  'Microsoft Edge': 'Edge',
  HeadlessChrome: 'Chrome Headless',
  'Android WebView': 'Chrome WebView',
  YaBrowser: 'Yandex',
  'Yandex Browser': 'Yandex',
  'Samsung Internet': 'Samsung Internet',
  'Opera GX': 'Opera GX',
}

/** Sec-CH-UA-Platform values as ua-parser-js names the same systems. */
const PLATFORM_NAMES: Record<string, string> = { macOS: 'Mac OS', 'Chrome OS': 'Chromium OS', 'Chromium OS': 'Chromium OS' }

/** Sec-CH-UA-Form-Factors values and the device type each means, in the order they are preferred. */
const FORM_FACTORS: Record<string, DeviceType> = {
  XR: 'xr',
  Watch: 'wearable',
  Tablet: 'tablet',
  Mobile: 'mobile',
  EInk: 'tablet',
  Automotive: 'embedded',
  Desktop: 'desktop',
}

/** Chromium's GREASE brands ("Not A(Brand", "Not/A)Brand", ";Not A Brand"…): noise on purpose, never a browser. */
const GREASE_BRAND = /^\W*not\W*a\W*brand\W*$/i

/** The characters of a product token around a bot pattern's match ("Googlebot" from "bot"). */
const PRODUCT_CHARACTER = /[^\s/;:(),[\]{}<>"'=+|]/

const nullable = <T extends TSchema>(type: T, description: string) => Type.Union([type, Type.Null()], { description })
const sourceSchema = (what: string) => nullable(Type.Enum(SOURCES), `Where ${what} came from; null when unknown.`)

const brandSchema = Type.Object({
  brand: Type.String({ description: 'The brand, as sent.' }),
  version: Type.String({ description: 'Its version: the major version in Sec-CH-UA, the full one in Sec-CH-UA-Full-Version-List.' }),
})

const clientHintsSchema = Type.Object(
  {
    brands: nullable(Type.Array(brandSchema), 'Sec-CH-UA, GREASE brands included.'),
    fullVersionList: nullable(Type.Array(brandSchema), 'Sec-CH-UA-Full-Version-List.'),
    mobile: nullable(Type.Boolean(), 'Sec-CH-UA-Mobile.'),
    platform: nullable(Type.String(), 'Sec-CH-UA-Platform.'),
    platformVersion: nullable(Type.String(), 'Sec-CH-UA-Platform-Version.'),
    model: nullable(Type.String(), 'Sec-CH-UA-Model.'),
    architecture: nullable(Type.String(), 'Sec-CH-UA-Arch.'),
    bitness: nullable(Type.String(), 'Sec-CH-UA-Bitness.'),
    wow64: nullable(Type.Boolean(), 'Sec-CH-UA-WOW64.'),
    formFactors: nullable(Type.Array(Type.String()), 'Sec-CH-UA-Form-Factors.'),
  },
  { description: 'Each header read, as its structured-field value; null for a header not sent.' },
)

const text = (description: string) => nullable(Type.String(), description)

const output = Type.Object({
  result: Type.String({
    description:
      'One line: browser and major version, system, device type (and vendor and model), e.g. `Edge 131 on Windows 10 (desktop)`; a bot is named first.',
  }),
  browser: Type.Object({
    name: text("The browser or app, by ua-parser-js's names (`Chrome`, `Mobile Safari`, `Edge`)."),
    version: text('Its version.'),
    major: text('Its major version.'),
  }),
  engine: Type.Object({ name: text('The rendering engine (`Blink`, `Gecko`, `WebKit`).'), version: text('Its version.') }),
  os: Type.Object({ name: text('The operating system (`Windows`, `Mac OS`, `Android`, `iOS`).'), version: text('Its version (`10`, `11`, `14.5.0`).') }),
  device: Type.Object({
    type: Type.Enum(DEVICE_TYPES, {
      description:
        '`desktop` when the system is a desktop one (ua-parser-js names no desktop type), `bot` for a bot that names no device, `unknown` when nothing tells.',
    }),
    vendor: text('The maker (`Apple`, `Samsung`).'),
    model: text('The model (`iPhone`, `SM-G991B`).'),
  }),
  cpu: Type.Object({ architecture: text("The CPU architecture, by ua-parser-js's names (`amd64`, `ia32`, `arm64`, `arm`).") }),
  bot: Type.Object({
    isBot: Type.Boolean({ description: 'Whether the agent is a bot, crawler or non-browser client (curl, python-requests…), as isbot judges.' }),
    name: text('The product token of the bot matched (`Googlebot`, `curl`); null for a browser.'),
  }),
  clientHints: Type.Union([clientHintsSchema, Type.Null()], { description: 'The Client Hints headers read; null when none were given.' }),
  sources: Type.Object(
    {
      browser: Type.Object({ name: sourceSchema('the name'), version: sourceSchema('the version'), major: sourceSchema('the major version') }),
      engine: Type.Object({ name: sourceSchema('the name'), version: sourceSchema('the version') }),
      os: Type.Object({ name: sourceSchema('the name'), version: sourceSchema('the version') }),
      device: Type.Object({ type: sourceSchema('the type'), vendor: sourceSchema('the vendor'), model: sourceSchema('the model') }),
      cpu: Type.Object({ architecture: sourceSchema('the architecture') }),
    },
    {
      description:
        'For each field: `userAgent` (the User-Agent string), `clientHints` (a Client Hints header, which wins), `inferred` (a desktop type from a desktop system, the bot type), or null.',
    },
  ),
  warnings: Type.Array(Type.String(), {
    description: 'What to know about the answer: a User-Agent cut to its first 500 characters, a value frozen by User-Agent reduction, a hint not understood.',
  }),
})

type Output = Static<typeof output>
type Field = { value: string | null; source: Source | null }

const fromUserAgent = (value: string | undefined): Field => (value ? { value, source: 'userAgent' } : { value: null, source: null })
const fromHints = (value: string): Field => ({ value, source: 'clientHints' })

/**
 * The product token around the first match of isbot's pattern ("Googlebot" around "bot"); a match of
 * punctuation alone (a leading "(", "()") names the first token of the whole string instead.
 */
function botName(ua: string, pattern: RegExp): string | null {
  const match = pattern.exec(ua)
  if (!match) return null
  let start = match.index
  const end = match.index + match[0].length
  while (start < end && !PRODUCT_CHARACTER.test(ua[start])) start++
  if (start === end) {
    start = 0
    while (start < ua.length && !PRODUCT_CHARACTER.test(ua[start])) start++
    if (start === ua.length) return null
  }
  let last = start
  while (start > 0 && PRODUCT_CHARACTER.test(ua[start - 1])) start--
  while (last + 1 < ua.length && PRODUCT_CHARACTER.test(ua[last + 1])) last++
  return ua.slice(start, last + 1)
}

/**
 * The Windows release a Sec-CH-UA-Platform-Version means, as Microsoft documents for User-Agent
 * reduction: 13 and above is Windows 11, 1 to 10 is Windows 10, and 0.1, 0.2, 0.3 are 7, 8 and 8.1.
 */
function windowsRelease(platformVersion: string): string | null {
  const match = /^(\d+)(?:\.(\d+))?/.exec(platformVersion)
  if (!match) return null
  const major = Number(match[1])
  if (major >= 13) return '11'
  if (major >= 1 && major <= 10) return '10'
  if (major === 0) return ({ 1: '7', 2: '8', 3: '8.1' } as Record<string, string>)[match[2] ?? ''] ?? null
  return null
}

function chosenBrand(brands: Brand[] | null): Brand | undefined {
  const real = (brands ?? []).filter((brand) => !GREASE_BRAND.test(brand.brand))
  return real.find((brand) => brand.brand !== 'Chromium') ?? real[0]
}

function architectureOf(hints: ClientHints): string | null {
  const arch = hints.architecture?.toLowerCase()
  if (!arch) return null
  const wide = hints.bitness === '64' || (hints.wow64 === true && arch === 'x86')
  if (arch === 'x86') return wide ? 'amd64' : 'ia32'
  if (arch === 'arm') return wide ? 'arm64' : 'arm'
  return arch
}

interface Reading {
  browser: { name: Field; version: Field; major: Field }
  engine: { name: Field; version: Field }
  os: { name: Field; version: Field }
  device: { type: Field; vendor: Field; model: Field }
  cpu: { architecture: Field }
}

function fromParser(parsed: UAParserResult): Reading {
  return {
    browser: { name: fromUserAgent(parsed.browser.name), version: fromUserAgent(parsed.browser.version), major: fromUserAgent(parsed.browser.major) },
    engine: { name: fromUserAgent(parsed.engine.name), version: fromUserAgent(parsed.engine.version) },
    os: { name: fromUserAgent(parsed.os.name), version: fromUserAgent(parsed.os.version) },
    device: { type: fromUserAgent(parsed.device.type), vendor: fromUserAgent(parsed.device.vendor), model: fromUserAgent(parsed.device.model) },
    cpu: { architecture: fromUserAgent(parsed.cpu.architecture) },
  }
}

/** Client Hints win over the User-Agent, which User-Agent reduction freezes. */
function applyHints(reading: Reading, hints: ClientHints, warnings: string[]) {
  const brand = chosenBrand(hints.brands) ?? chosenBrand(hints.fullVersionList)
  if (brand) {
    const name = BRAND_NAMES[brand.brand] ?? brand.brand
    const full = hints.fullVersionList?.find((each) => each.brand === brand.brand)?.version
    const major = (full ?? brand.version).split('.')[0]
    const sameBrowser = reading.browser.name.value === name && reading.browser.major.value === major
    reading.browser.name = fromHints(name)
    reading.browser.major = fromHints(major)
    if (full) reading.browser.version = fromHints(full)
    else if (!sameBrowser) reading.browser.version = fromHints(brand.version)
  } else if (hints.brands !== null && hints.brands.length > 0) {
    warnings.push('Sec-CH-UA names only GREASE brands, so the browser is read from the User-Agent.')
  }
  const chromium = [...(hints.fullVersionList ?? []), ...(hints.brands ?? [])].find((each) => each.brand === 'Chromium')
  if (chromium) {
    const sameEngine = reading.engine.name.value === 'Blink' && reading.engine.version.value?.split('.')[0] === chromium.version.split('.')[0]
    reading.engine.name = fromHints('Blink')
    if (!sameEngine || chromium.version.includes('.')) reading.engine.version = fromHints(chromium.version)
  }

  const platform = hints.platform && hints.platform !== 'Unknown' ? (PLATFORM_NAMES[hints.platform] ?? hints.platform) : null
  if (platform !== null && platform !== reading.os.name.value) {
    reading.os.name = fromHints(platform)
    reading.os.version = { value: null, source: null }
  } else if (platform !== null) {
    reading.os.name = fromHints(platform)
  }
  if (hints.platformVersion) {
    if (reading.os.name.value === 'Windows') {
      const release = windowsRelease(hints.platformVersion)
      if (release !== null) reading.os.version = fromHints(release)
      else
        warnings.push(
          `Sec-CH-UA-Platform-Version "${hints.platformVersion}" names no Windows release Microsoft documents, so the Windows version is the User-Agent's.`,
        )
    } else if (reading.os.name.value !== null) {
      reading.os.version = fromHints(hints.platformVersion)
    }
  }

  if (hints.model) reading.device.model = fromHints(hints.model)
  const formFactor = Object.keys(FORM_FACTORS).find((name) => hints.formFactors?.includes(name))
  if (formFactor !== undefined) reading.device.type = fromHints(FORM_FACTORS[formFactor])
  else if (hints.mobile === true) reading.device.type = fromHints('mobile')
  else if (hints.mobile === false && reading.device.type.value === 'mobile') reading.device.type = { value: null, source: null }

  const architecture = architectureOf(hints)
  if (architecture !== null) reading.cpu.architecture = fromHints(architecture)
}

/** What User-Agent reduction froze and no Client Hint corrected. */
function frozenWarnings(reading: Reading, warnings: string[]) {
  const { os, device } = reading
  if (os.name.value === 'Windows' && os.version.value === '10' && os.version.source === 'userAgent') {
    warnings.push('Windows NT 10.0 is what Windows 11 sends too; Sec-CH-UA-Platform-Version tells them apart (13 and above is Windows 11).')
  }
  if (os.name.value === 'Mac OS' && os.version.value === '10.15.7' && os.version.source === 'userAgent') {
    warnings.push('Mac OS X 10_15_7 is what browsers send on every later macOS; Sec-CH-UA-Platform-Version gives the real version.')
  }
  if (os.name.value === 'Android' && device.model.value === 'K' && device.model.source === 'userAgent') {
    warnings.push('The model K is the placeholder of a reduced User-Agent; Sec-CH-UA-Model gives the real model.')
  }
}

function summaryOf(answer: Omit<Output, 'result'>): string {
  const { browser, os, device, bot } = answer
  const browserText = browser.name === null ? null : [browser.name, browser.major].filter(Boolean).join(' ')
  const osText = os.name === null ? null : [os.name, os.version].filter(Boolean).join(' ')
  const hardware = [device.vendor, device.model].filter(Boolean).join(' ')
  const deviceText =
    device.type === 'bot' || (device.type === 'unknown' && !hardware)
      ? null
      : [device.type === 'unknown' ? null : device.type, hardware].filter(Boolean).join(', ')
  const agent = [browserText, osText === null ? null : `${browserText === null ? '' : 'on '}${osText}`, deviceText === null ? null : `(${deviceText})`]
    .filter((part) => part !== null)
    .join(' ')
  if (bot.isBot) return `${bot.name ?? 'A bot'} (bot)${agent ? ` as ${agent}` : ''}`
  // A device alone reads better bare than in parentheses.
  if (browserText === null && osText === null) return deviceText || 'unknown'
  return agent
}

export const userAgent = defineOperation({
  name: 'user-agent',
  category: 'converters',
  summary: 'Parse a User-Agent string and Client Hints: browser, engine, OS, device, CPU and bots',
  title: 'User-Agent parser',
  aliases: [
    'user agent',
    'useragent',
    'ua',
    'ua parser',
    'user agent parser',
    'parse user agent',
    'browser detection',
    'detect browser',
    'what browser',
    'os detection',
    'device detection',
    'bot detection',
    'is bot',
    'crawler',
    'googlebot',
    'client hints',
    'sec-ch-ua',
    'ua-ch',
    'user agent reduction',
    'mobile or desktop',
  ],
  description:
    'Parses a User-Agent request header with ua-parser-js 1.0.41 (the MIT-licensed line) into browser, engine, operating system, device and CPU, and tells bots, crawlers and non-browser clients (curl, python-requests, Postman, Go-http-client, Googlebot) apart with isbot 5, naming the product token matched. ' +
    'Only the first 500 characters of `input` after leading white space are read, as ua-parser-js caps them; `warnings` says when more was given. ' +
    '`headers` takes User-Agent Client Hints (Sec-CH-UA, -Mobile, -Platform, -Platform-Version, -Model, -Arch, -Bitness, -Full-Version-List, -WOW64, -Form-Factors; names in any case), parsed as RFC 8941 structured fields. Their values win over the User-Agent, which User-Agent reduction freezes (`Windows NT 10.0`, `Mac OS X 10_15_7`, Android model `K`), and `sources` says which source gave each field. ' +
    'Sec-CH-UA-Platform-Version on Windows is read as Microsoft documents: 13 and above is Windows 11, 1 to 10 is Windows 10, 0.1, 0.2 and 0.3 are 7, 8 and 8.1. GREASE brands (`Not A(Brand`) are skipped, a specific brand is preferred to Chromium, and brands are named as ua-parser-js names the same browsers (Google Chrome is `Chrome`). A Form-Factors value sets the device type, else Sec-CH-UA-Mobile ?1 makes it mobile. ' +
    'ua-parser-js names no desktop type: the type is `desktop` when the system is a desktop one (Windows, Mac OS, Linux distributions, Chromium OS, the BSDs…), `bot` for a bot that names no device, and `unknown` otherwise. Unknown values are null, never empty strings. ' +
    'Refused: neither `input` nor `headers` (400); a header name that is not one of those, or one given twice in different cases (400); a value that is not the structured field its header holds (422 INVALID_INPUT naming the header, with `details.header` and `details.position`). GET takes `input` only; Client Hints need a POST.',
  allowGet: true,
  input: Type.Object(
    {
      input: Type.Optional(
        Type.String({
          maxLength: INPUT_MAX_LENGTH,
          description: 'The User-Agent string. Only its first 500 characters (after leading white space) are read. Optional when `headers` is given.',
          examples: ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0'],
        }),
      ),
      headers: Type.Optional(
        Type.Record(Type.String(), Type.String({ maxLength: HEADER_MAX_LENGTH }), {
          maxProperties: Object.keys(CLIENT_HINT_HEADERS).length,
          description: `User-Agent Client Hints request headers, name to value as sent (names in any case): ${Object.keys(CLIENT_HINT_HEADERS).join(', ')}. Each value at most 1,024 characters.`,
          examples: [
            {
              'sec-ch-ua': '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"',
              'sec-ch-ua-platform': '"Windows"',
              'sec-ch-ua-platform-version': '"15.0.0"',
            },
          ],
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output,
  examples: [
    {
      summary: 'Edge on Windows: the User-Agent alone',
      input: { input: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0' },
      output: {
        result: 'Edge 131 on Windows 10 (desktop)',
        browser: { name: 'Edge', version: '131.0.0.0', major: '131' },
        engine: { name: 'Blink', version: '131.0.0.0' },
        os: { name: 'Windows', version: '10' },
        device: { type: 'desktop', vendor: null, model: null },
        cpu: { architecture: 'amd64' },
        bot: { isBot: false, name: null },
        clientHints: null,
        sources: {
          browser: { name: 'userAgent', version: 'userAgent', major: 'userAgent' },
          engine: { name: 'userAgent', version: 'userAgent' },
          os: { name: 'userAgent', version: 'userAgent' },
          device: { type: 'inferred', vendor: null, model: null },
          cpu: { architecture: 'userAgent' },
        },
        warnings: ['Windows NT 10.0 is what Windows 11 sends too; Sec-CH-UA-Platform-Version tells them apart (13 and above is Windows 11).'],
      },
    },
    {
      summary: 'Client Hints tell Windows 11 from the frozen Windows NT 10.0',
      input: {
        input: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        headers: {
          'Sec-CH-UA': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
          'Sec-CH-UA-Mobile': '?0',
          'Sec-CH-UA-Platform': '"Windows"',
          'Sec-CH-UA-Platform-Version': '"15.0.0"',
        },
      },
      output: {
        result: 'Chrome 131 on Windows 11 (desktop)',
        browser: { name: 'Chrome', version: '131.0.0.0', major: '131' },
        engine: { name: 'Blink', version: '131.0.0.0' },
        os: { name: 'Windows', version: '11' },
        device: { type: 'desktop', vendor: null, model: null },
        cpu: { architecture: 'amd64' },
        bot: { isBot: false, name: null },
        clientHints: {
          brands: [
            { brand: 'Google Chrome', version: '131' },
            { brand: 'Chromium', version: '131' },
            { brand: 'Not_A Brand', version: '24' },
          ],
          fullVersionList: null,
          mobile: false,
          platform: 'Windows',
          platformVersion: '15.0.0',
          model: null,
          architecture: null,
          bitness: null,
          wow64: null,
          formFactors: null,
        },
        sources: {
          browser: { name: 'clientHints', version: 'userAgent', major: 'clientHints' },
          engine: { name: 'clientHints', version: 'userAgent' },
          os: { name: 'clientHints', version: 'clientHints' },
          device: { type: 'inferred', vendor: null, model: null },
          cpu: { architecture: 'userAgent' },
        },
        warnings: [],
      },
    },
    {
      summary: 'A phone: vendor and model',
      input: { input: 'Mozilla/5.0 (Linux; Android 10; SCG01) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.106 Mobile Safari/537.36' },
      output: {
        result: 'Chrome 83 on Android 10 (mobile, Samsung SCG01)',
        browser: { name: 'Chrome', version: '83.0.4103.106', major: '83' },
        engine: { name: 'Blink', version: '83.0.4103.106' },
        os: { name: 'Android', version: '10' },
        device: { type: 'mobile', vendor: 'Samsung', model: 'SCG01' },
        cpu: { architecture: null },
        bot: { isBot: false, name: null },
        clientHints: null,
        sources: {
          browser: { name: 'userAgent', version: 'userAgent', major: 'userAgent' },
          engine: { name: 'userAgent', version: 'userAgent' },
          os: { name: 'userAgent', version: 'userAgent' },
          device: { type: 'userAgent', vendor: 'userAgent', model: 'userAgent' },
          cpu: { architecture: null },
        },
        warnings: [],
      },
    },
    {
      summary: 'Googlebot',
      input: { input: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      output: {
        result: 'Googlebot (bot)',
        browser: { name: null, version: null, major: null },
        engine: { name: null, version: null },
        os: { name: null, version: null },
        device: { type: 'bot', vendor: null, model: null },
        cpu: { architecture: null },
        bot: { isBot: true, name: 'Googlebot' },
        clientHints: null,
        sources: {
          browser: { name: null, version: null, major: null },
          engine: { name: null, version: null },
          os: { name: null, version: null },
          device: { type: 'inferred', vendor: null, model: null },
          cpu: { architecture: null },
        },
        warnings: [],
      },
    },
  ],
  runsInBrowser: true,
  async run({ input, headers }) {
    if (input === undefined && headers === undefined)
      throw validationError('input', 'is required unless headers are given: give the User-Agent, Client Hints headers, or both')
    const warnings: string[] = []
    const hints = headers === undefined ? null : readClientHints(headers)
    const trimmed = (input ?? '').replace(/^\s+/, '')
    if (trimmed.length > UA_READ_LENGTH) {
      warnings.push(
        `input is ${trimmed.length} characters long after leading white space; only the first ${UA_READ_LENGTH} are read, as ua-parser-js reads them.`,
      )
    }
    const ua = trimmed.slice(0, UA_READ_LENGTH)
    const [parse, bots] = await Promise.all([uaParser(), botDetector()])
    const reading = fromParser(parse(ua))
    if (hints !== null) applyHints(reading, hints, warnings)
    frozenWarnings(reading, warnings)

    const isBot = ua !== '' && bots.isBot(ua)
    const name = isBot ? botName(ua, bots.getPattern()) : null
    if (reading.device.type.value === null) {
      if (isBot) reading.device.type = { value: 'bot', source: 'inferred' }
      else if (reading.os.name.value !== null && DESKTOP_SYSTEMS.has(reading.os.name.value.toLowerCase()))
        reading.device.type = { value: 'desktop', source: 'inferred' }
    }
    const values = <K extends string>(group: Record<K, Field>) =>
      Object.fromEntries(Object.entries<Field>(group).map(([key, field]) => [key, field.value])) as Record<K, string | null>
    const sources = <K extends string>(group: Record<K, Field>) =>
      Object.fromEntries(Object.entries<Field>(group).map(([key, field]) => [key, field.source])) as Record<K, Source | null>
    const body = {
      browser: values(reading.browser),
      engine: values(reading.engine),
      os: values(reading.os),
      device: { ...values(reading.device), type: (reading.device.type.value ?? 'unknown') as DeviceType },
      cpu: values(reading.cpu),
      bot: { isBot, name },
      clientHints: hints,
      sources: {
        browser: sources(reading.browser),
        engine: sources(reading.engine),
        os: sources(reading.os),
        device: sources(reading.device),
        cpu: sources(reading.cpu),
      },
      warnings,
    }
    return { result: summaryOf(body), ...body }
  },
})
