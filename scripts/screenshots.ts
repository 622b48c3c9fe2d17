// `npm run screenshots`: the README's pictures of the web app, taken from the build as a user runs it.
// It starts `dist/server.js` (it builds nothing: run `npm run build` first) on a free port, opens the
// home page and one tool with its answer in view in headless Chromium, offline, and writes them into
// docs/screenshots/.
import assert from 'node:assert/strict'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { launchChromium, offlineContext } from '../test/browser.ts'
import { ROOT, startService } from '../test/processes.ts'

const FOLDER = join(ROOT, 'docs', 'screenshots')
const VIEWPORT = { width: 1280, height: 800 }
/** Tall enough to show the whole answer: the notations, then the contrast verdicts. */
const TOOL_VIEWPORT = { width: 1280, height: 1100 }
/** The tool shown with its answer: a colour's notations, its swatch and its WCAG verdicts against white. */
const TOOL_PAGE = `/tools/color#${new URLSearchParams({ input: 'rebeccapurple', contrastWith: 'white' })}`

/** Waits until the page shows its answer: the status line says so and is no longer busy. */
async function answered(page: Page): Promise<void> {
  await page.locator('#answer-status:not(.busy)', { hasText: 'Answered' }).waitFor()
}

async function main(): Promise<void> {
  assert.ok(existsSync(join(ROOT, 'dist', 'server.js')), 'dist/server.js is missing: run `npm run build` first')
  mkdirSync(FOLDER, { recursive: true })
  // The pages ask more in a minute than the limiter lets one client; nothing else here needs it.
  const service = await startService({ RATE_LIMIT_MAX: '0' })
  const browser = await launchChromium()
  try {
    const offOrigin: string[] = []
    const context = await offlineContext(browser, service.url, offOrigin, { viewport: VIEWPORT, colorScheme: 'light' })
    const page = await context.newPage()

    await page.goto(service.url)
    await page.locator('.cards li').first().waitFor()
    await page.screenshot({ path: join(FOLDER, 'home.png') })

    await page.setViewportSize(TOOL_VIEWPORT)
    await page.goto(`${service.url}${TOOL_PAGE}`)
    await answered(page)
    await page.screenshot({ path: join(FOLDER, 'tool.png') })

    assert.deepEqual(offOrigin, [], 'the web app asked for nothing outside the service')
    console.log(`wrote ${join('docs', 'screenshots', 'home.png')} and ${join('docs', 'screenshots', 'tool.png')}`)
  } finally {
    await browser.close()
    service.child.kill('SIGTERM')
    await service.exited
  }
}

await main()
