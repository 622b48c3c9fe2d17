import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type { Browser, Page } from 'playwright-core'
import { launchChromium, offlineContext } from '../browser.ts'
import { buildTestApp } from '../helpers.ts'

const SCREENSHOT = '/tmp/devutils-docs-base64.png'

describe('the docs page in headless Chromium, offline, under the service CSP', { timeout: 60_000 }, () => {
  let app: FastifyInstance
  let browser: Browser
  let page: Page
  let origin: string
  const offOrigin: string[] = []
  const cspReports: string[] = []
  const pageErrors: string[] = []
  const failedResponses: string[] = []

  before(async () => {
    app = await buildTestApp()
    await app.listen({ host: '127.0.0.1', port: 0 })
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    browser = await launchChromium()
    const context = await offlineContext(browser, origin, offOrigin, { viewport: { width: 1280, height: 1600 } })
    page = await context.newPage()
    page.on('console', (message) => {
      const text = message.text()
      if (text.includes('Content Security Policy') || text.includes('securitypolicyviolation')) cspReports.push(text.slice(0, 300))
    })
    page.on('pageerror', (error) => pageErrors.push(error.message))
    page.on('response', (response) => {
      if (response.status() >= 400) failedResponses.push(`${response.status()} ${response.url()}`)
    })
    page.setDefaultTimeout(20_000)
  })

  after(async () => {
    await browser?.close()
    await app?.close()
  })

  test('base64 through "Try it out" shows aGk= for {"input": "hi"}', async () => {
    await page.goto(`${origin}/docs`)
    const operation = page.locator('#operations-encoders-base64')
    await operation.locator('.opblock-summary').click()
    await operation.locator('.try-out__btn').click()
    const body = operation.locator('textarea.body-param__text')
    await body.fill('{"input": "hi"}')
    const sent = page.waitForRequest((request) => request.method() === 'POST' && request.url() === `${origin}/api/v1/base64`)
    await operation.locator('.execute').click()
    assert.equal((await sent).postData(), '{"input": "hi"}')

    const shown = operation.locator('.responses-wrapper .live-responses-table .response-col_description .microlight')
    await shown.first().waitFor()
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the text as shown, which is what is checked
    assert.match(await shown.first().innerText(), /"result":\s*"aGk="/)
    // From the operation's header down to the live response. Boxes are relative to the viewport and
    // the clip to the document, whose own box is offset by the scroll.
    const documentBox = (await page.locator('html').boundingBox())!
    const top = (await operation.boundingBox())!
    const bottom = (await operation.locator('.live-responses-table').boundingBox())!
    await page.screenshot({
      path: SCREENSHOT,
      fullPage: true,
      clip: { x: top.x, y: top.y - documentBox.y, width: top.width, height: bottom.y + bottom.height - top.y },
    })
  })

  // Apart from the flow above, so that its diagnostics show even when a blocked script broke the flow.
  test('the page requested nothing outside the service, broke no CSP rule and threw nothing', () => {
    assert.deepEqual(offOrigin, [], 'the docs page requested something outside the service')
    assert.deepEqual(cspReports, [], 'the docs page broke the Content-Security-Policy')
    assert.deepEqual(pageErrors, [], 'the docs page threw')
    assert.deepEqual(failedResponses, [], 'the service refused a request of the docs page')
  })
})
