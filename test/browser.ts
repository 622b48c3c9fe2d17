import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core'

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Debian's Chromium, headless. We run as root, where Chromium refuses its sandbox; the rest keeps it off the (closed) network. */
export async function launchChromium(): Promise<Browser> {
  assert.ok(
    existsSync(CHROMIUM_PATH),
    `Chromium is not at ${CHROMIUM_PATH}: install it with 'apt-get install -y chromium', or set CHROMIUM_PATH to a Chromium binary`,
  )
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

/**
 * A context that lets only requests to `origin` through: any other is aborted and noted in
 * `offOrigin`. Chromium logs each CSP violation to the console; the page's own event is a second
 * witness that does not depend on that wording, so it is logged there too.
 */
export async function offlineContext(browser: Browser, origin: string, offOrigin: string[], options: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext(options)
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (new URL(url).origin === origin) return route.continue()
    offOrigin.push(url)
    return route.abort('blockedbyclient')
  })
  await context.addInitScript({
    content:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the script is run in the browser, where the template is evaluated
      "document.addEventListener('securitypolicyviolation', (event) => console.error(`securitypolicyviolation: ${event.violatedDirective} blocked ${event.blockedURI}`))",
  })
  return context
}
