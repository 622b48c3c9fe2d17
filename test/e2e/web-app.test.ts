import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { setTimeout as delay } from 'node:timers/promises'
import { gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { validate } from '../../src/core/validate.ts'
import { operations, operationsByName } from '../../src/operations/index.ts'
import type { FieldSchema, WebCatalogue } from '../../src/web/catalogue-types.ts'
import { launchChromium, offlineContext } from '../browser.ts'
import { buildTestApp, request } from '../helpers.ts'

/** Set to docs/screenshots to refresh the README's screenshots; elsewhere they go to a temporary folder. */
const SCREENSHOTS = process.env.DEVUTILS_SCREENSHOTS ?? '/tmp/devutils-web-app'
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

describe('the web app in headless Chromium, offline, under its CSP', { timeout: 480_000 }, () => {
  let app: FastifyInstance
  let browser: Browser
  let origin: string
  const offOrigin: string[] = []
  const cspReports: string[] = []
  const pageErrors: string[] = []
  const failedAssets: string[] = []

  async function newContext(colorScheme: 'light' | 'dark' = 'light', viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
    const context = await offlineContext(browser, origin, offOrigin, { viewport, colorScheme })
    context.on('page', watch)
    return context
  }

  function watch(page: Page) {
    page.setDefaultTimeout(15_000)
    page.on('console', (message) => {
      const text = message.text()
      if (text.includes('Content Security Policy') || text.includes('securitypolicyviolation')) cspReports.push(text.slice(0, 300))
    })
    page.on('pageerror', (error) => pageErrors.push(error.message))
    page.on('response', (response) => {
      // The API's 400s and 422s are what some tests ask for; anything else refused is a fault.
      if (response.status() >= 400 && !new URL(response.url()).pathname.startsWith('/api/v1/')) failedAssets.push(`${response.status()} ${response.url()}`)
    })
  }

  let context: BrowserContext
  let page: Page

  before(async () => {
    // Key derivation on a worker thread of a busy test machine may take longer than the default budget.
    // The pages of these tests, run back to back, ask more in a minute than the limiter lets one client.
    app = await buildTestApp({ timeBudgetMs: 30_000, rateLimitMax: 0 })
    await app.listen({ host: '127.0.0.1', port: 0 })
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    browser = await launchChromium()
    context = await newContext()
    page = await context.newPage()
    mkdirSync(SCREENSHOTS, { recursive: true })
  })

  after(async () => {
    await browser?.close()
    await app?.close()
  })

  /** Polls from here rather than in the page, where the CSP refuses the evaluated code Playwright's waitForFunction would run. */
  async function until(what: string, check: () => Promise<boolean>) {
    const deadline = Date.now() + 15_000
    while (!(await check())) {
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`)
      await delay(40)
    }
  }

  /** Waits until the answer of the latest request is shown (or its error), and returns the status line. */
  async function settled(target: Page = page): Promise<string> {
    let text = ''
    await until('an answer', async () => {
      // Text and state read at once, so that neither can be from before the other changed.
      const status = (await target.evaluate(
        "(({ textContent, className }) => ({ textContent, className }))(document.getElementById('answer-status') ?? { textContent: '', className: '' })",
      )) as { textContent: string; className: string }
      text = status.textContent
      return text !== '' && !status.className.includes('busy')
    })
    return text
  }

  /** Waits until the text of the element with this id is `expected`, or starts with it, or includes it. */
  async function untilText(target: Page, id: string, expected: string, how: 'equals' | 'startsWith' | 'includes' = 'equals') {
    const element = target.locator(`#${id}`)
    await until(`#${id} ${how} ${expected}`, async () => {
      const text = (await element.count()) === 0 ? '' : ((await element.textContent()) ?? '')
      return how === 'equals' ? text === expected : text[how](expected)
    })
  }

  async function shownData(target: Page = page): Promise<Record<string, unknown>> {
    return JSON.parse((await target.locator('#answer-json').textContent()) ?? 'null') as Record<string, unknown>
  }

  /** A refusal the page places in the form: the headline says so in words, and the API's code is in the JSON view alone. */
  async function assertRefusedInForm(code: string, target: Page = page) {
    assert.equal(await settled(target), 'Fix the field marked in the form.')
    assert.equal((await shownData(target)).code, code)
  }

  /** What the page calls an operation: its title. */
  const titleOf = (name: string | null) => operationsByName.get(String(name))!.title

  test("every operation's page loads, runs its first example and shows the documented data", async () => {
    for (const operation of operations.filter((candidate) => !candidate.runsInBrowser)) {
      await page.goto(`${origin}/tools/${operation.name}`)
      await settled()
      const [example] = operation.examples
      const answered = page.waitForResponse((response) => response.url() === `${origin}/api/v1/${operation.name}` && response.request().method() === 'POST')
      await page.locator('button[data-example="0"]').click()
      await answered
      const status = await settled()
      assert.match(status, /^Answered by this service\. Took /, `${operation.name}: ${status}`)
      const data = await shownData()
      if (example.output !== undefined) assert.deepEqual(data, example.output, `${operation.name}: ${example.summary}`)
      else validate(operation.output, data, 'data')
    }
  })

  /** The API calls the tab makes from now on, as they are made; each is then aborted or let through. */
  async function recordApiCalls(tab: Page, then: 'abort' | 'continue'): Promise<string[]> {
    const sent: string[] = []
    await tab.route('**/api/v1/**', (route) => {
      sent.push(route.request().url())
      return then === 'abort' ? route.abort() : route.continue()
    })
    return sent
  }

  test('the operations that run in the browser answer every example in the page, as documented, with the service out of reach', async () => {
    const inPage = operations.filter((operation) => operation.runsInBrowser)
    assert.ok(inPage.length >= 55, inPage.map((operation) => operation.name).join(', '))
    const own = await newContext()
    const tab = await own.newPage()
    const sent = await recordApiCalls(tab, 'abort')
    for (const operation of inPage) {
      await tab.goto(`${origin}/tools/${operation.name}`)
      assert.equal(await tab.locator('.runs-here .badge').textContent(), 'runs in your browser')
      for (const [index, example] of operation.examples.entries()) {
        // The form sends nothing while its main input is empty (it asks for one): such an example
        // (the hash of the empty message) is answered on the other surfaces' tests.
        if ((example.input as { input?: unknown }).input === '') continue
        await tab.locator(`button[data-example="${index}"]`).click()
        const status = await settled(tab)
        assert.match(status, /^Answered in your browser\. Took /, `${operation.name}: ${status}`)
        const data = await shownData(tab)
        if (example.output !== undefined) assert.deepEqual(data, example.output, `${operation.name}: ${example.summary}`)
        else validate(operation.output, data, 'data')
      }
    }
    // A refusal is the service's own: its code in the JSON view, its message beside the field.
    await tab.goto(`${origin}/tools/color#input=%23zz`)
    await assertRefusedInForm('INVALID_INPUT', tab)
    assert.match((await tab.locator('.field-input .field-error').textContent()) ?? '', /zz/)
    assert.deepEqual(sent, [], 'nothing was sent')
    await own.close()
  })

  test('"only in this browser": each page says where its tool runs, and with the switch on, a tool of the service sends nothing', async () => {
    const own = await newContext()
    const tab = await own.newPage()
    const sent = await recordApiCalls(tab, 'continue')
    await tab.goto(`${origin}/tools/markdown`)
    assert.equal(await tab.locator('p.hint', { hasText: 'It runs on this service, so what you type is sent to it.' }).count(), 1)
    await tab.locator('#only-here').check()
    await tab.locator('.field-input textarea').fill('# kept here')
    await untilText(tab, 'answer-status', 'Nothing was sent', 'startsWith')
    // Remembered from page to page; a tool that runs in the page still answers.
    await tab.goto(`${origin}/tools/case#input=kept%20here&to=camel`)
    assert.equal(await tab.locator('#only-here').isChecked(), true)
    await untilText(tab, 'answer-result', 'keptHere')
    assert.deepEqual(sent, [], 'nothing was sent')
    await tab.goto(`${origin}/tools/markdown#input=sent`)
    await tab.locator('#only-here').uncheck()
    await tab.locator('.field-input textarea').fill('sent now')
    await untilText(tab, 'answer-result', 'sent now', 'includes')
    assert.equal(sent.length, 1)
    await own.close()
  })

  test("an operation running in the page runs on the page's worker: a heavy input holds up neither the page nor its next input", async () => {
    const numbered = (prefix: string) => Array.from({ length: 20_000 }, (_, index) => `${prefix}${index}`).join('\n')
    // As a paste puts a text in at once (fill would type it line by line).
    const paste = (field: string, text: string) =>
      page.evaluate(
        `(() => { const box = document.querySelector('.field-${field} textarea'); box.value = ${JSON.stringify(text)}; box.dispatchEvent(new Event('input', { bubbles: true })) })()`,
      )
    await page.goto(`${origin}/tools/diff`)
    await page.locator('.field-compareTo textarea').waitFor()
    await paste('compareTo', numbered('b'))
    await paste('input', numbered('a'))
    await untilText(page, 'answer-status', 'Running', 'includes')
    // Texts that differ on every line take diff seconds; meanwhile the page answers at once.
    const started = Date.now()
    assert.equal(await page.evaluate('1 + 1'), 2)
    assert.ok(Date.now() - started < 500, `the page answered after ${Date.now() - started} ms`)
    // A new input replaces the run still going, whose worker is ended, and is answered at once.
    await page.locator('.field-input textarea').fill('b1')
    await page.locator('.field-compareTo textarea').fill('b2')
    const status = await settled()
    assert.match(status, /^Answered in your browser/, status)
    assert.ok(Date.now() - started < 3000, `the small input was answered ${Date.now() - started} ms after the heavy one`)
  })

  test('a field the API refuses (400) shows its message next to that field', async () => {
    await page.goto(`${origin}/tools/base64#input=hi&lineLength=6`)
    await assertRefusedInForm('VALIDATION_ERROR')
    const error = page.locator('.field-lineLength .field-error')
    assert.match((await error.textContent()) ?? '', /^Line length must be a multiple of 4/)
    assert.equal(await page.locator('.field-lineLength input').getAttribute('aria-invalid'), 'true')
    assert.equal(await page.locator('.field-input .field-error').textContent(), '')
  })

  test('a 422 shows its position in the input, and its line and column', async () => {
    await page.goto(`${origin}/tools/base64#input=aGk*&action=decode`)
    await assertRefusedInForm('INVALID_INPUT')
    const error = (await page.locator('.field-input .field-error').textContent()) ?? ''
    assert.match(error, /not a base64 character/)
    assert.match(error, /line 1, column 4, position 3/)

    await page.goto(`${origin}/tools/json#${new URLSearchParams({ input: '{\n  "a": 1,\n  "b" 2\n}' })}`)
    await assertRefusedInForm('INVALID_INPUT')
    const excerpt = page.locator('.field-input .excerpt')
    assert.match((await page.locator('.field-input .error-location').textContent()) ?? '', /line 3, column \d+/)
    assert.match((await excerpt.textContent()) ?? '', /"b" 2\n\s*\^/)
  })

  test('a shared URL reproduces the inputs and the answer', async () => {
    await page.goto(`${origin}/tools/base64`)
    await page.locator('.field-action select').selectOption({ label: 'decode' })
    await page.locator('.field-input textarea').fill('aGVsbG8gd29ybGQ')
    await untilText(page, 'answer-result', 'hello world')
    const shared = page.url()
    assert.equal(new URL(shared).hash, '#input=aGVsbG8gd29ybGQ&action=decode')

    const other = await context.newPage()
    await other.goto(shared)
    await settled(other)
    assert.equal(await other.locator('.field-input textarea').inputValue(), 'aGVsbG8gd29ybGQ')
    assert.equal(await other.locator('.field-action select option:checked').textContent(), 'decode')
    assert.equal(await other.locator('#answer-result').textContent(), 'hello world')
    await other.close()
  })

  test('a secret never appears in the URL', async () => {
    await page.goto(`${origin}/tools/hmac`)
    await page.locator('.field-input textarea').fill('the message')
    await page.locator('.field-key textarea').fill('very-secret-key')
    await page.locator('details.options summary').click()
    await page.locator('.field-encoding select').selectOption({ label: 'base64' })
    await untilText(page, 'answer-status', 'Answered', 'startsWith')
    assert.match(page.url(), /input=the\+message/)
    assert.match(page.url(), /encoding=base64/)
    assert.doesNotMatch(page.url(), /very-secret-key|key=/)

    // password-hash: the password is its input, and the hash to verify is a secret too.
    await page.goto(`${origin}/tools/password-hash`)
    await page.locator('button[data-example="2"]').click()
    assert.match(await settled(), /Answered/)
    assert.equal((await shownData()).matches, true)
    assert.doesNotMatch(decodeURIComponent(page.url()), /abc|\$2a\$/)
    assert.match(page.url(), /action=verify/)
  })

  /** The statuses of the API's answers to this page, from now on. */
  function apiStatuses(target: Page = page): number[] {
    const statuses: number[] = []
    target.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/v1/')) statuses.push(response.status())
    })
    return statuses
  }

  const visibleFields = (target: Page = page) => target.locator('.form-fields .field:visible')

  test("jwt opens on a calm hint with the decode fields only, and the chosen action's fields follow the action", async () => {
    const statuses = apiStatuses()
    await page.goto(`${origin}/tools/jwt`)
    assert.equal(await settled(), 'Paste the input to decode, or pick an example.')
    assert.doesNotMatch((await page.locator('#answer-status').getAttribute('class')) ?? '', /error/)
    // The action and the token; the time to judge by is folded under Options.
    assert.deepEqual(await visibleFields().evaluateAll((fields) => fields.map((field) => field.getAttribute('data-field'))), ['input', 'action'])
    await page.locator('details.options summary').click()
    assert.deepEqual(await visibleFields().evaluateAll((fields) => fields.map((field) => field.getAttribute('data-field'))), ['input', 'action', 'at'])
    assert.equal(await page.locator('.field-at .field-name').textContent(), 'At')

    await page.locator('.field-action select').selectOption({ label: 'sign' })
    assert.ok(await page.locator('.field-payload').isVisible())
    assert.ok(await page.locator('.field-secret').isVisible())
    assert.equal(await page.locator('.field-input').isVisible(), false)
    assert.equal(await page.locator('.field-expiresInSeconds .field-name').textContent(), 'Expires in seconds')
    await untilText(page, 'answer-status', 'Paste the payload to sign', 'startsWith')
    await page.locator('.field-action select').selectOption({ label: 'verify' })
    assert.ok(await page.locator('.field-input').isVisible())
    assert.equal(await page.locator('.field-payload').isVisible(), false)
    assert.ok(await page.locator('.field-clockToleranceSeconds').isVisible())
    // A token typed here is not a shared link: the hint asks for the secret plainly. The token, a
    // bearer credential, stays out of the address.
    await page.locator('.field-input textarea').fill('eyJhbGciOiJIUzI1NiJ9.e30.x')
    await untilText(page, 'answer-status', 'Type the secret or the key to verify, or pick an example.')
    assert.doesNotMatch(page.url(), /eyJ/)
    assert.deepEqual(statuses, [], 'nothing was sent while the form was incomplete')
  })

  test('a boolean is a switch showing its documented default, sent only once changed', async () => {
    await page.goto(`${origin}/tools/base32#input=hi`)
    assert.equal(await untilAnswer(), 'NBUQ====')
    assert.equal(await page.locator('.field-padding select').count(), 0)
    const padding = page.locator('.field-padding input[role="switch"]')
    assert.equal(await padding.isChecked(), true)
    assert.equal(await padding.isVisible(), false, 'an option is folded')
    await page.locator('details.options summary').click()
    await padding.click()
    await untilText(page, 'answer-result', 'NBUQ')
    assert.match(page.url(), /padding=false/)
    // A link that sets an option opens the options.
    const other = await context.newPage()
    await other.goto(page.url())
    await untilText(other, 'answer-result', 'NBUQ')
    assert.equal(await other.locator('details.options').getAttribute('open'), '')
    await other.close()
  })

  test("hash's algorithm is a select of its algorithms", async () => {
    await page.goto(`${origin}/tools/hash`)
    await page.locator('.field-input textarea').fill('abc')
    await page.locator('details.options summary').click()
    const algorithm = page.locator('.field-algorithm select')
    assert.equal(await algorithm.locator('option:checked').textContent(), 'sha256')
    assert.ok((await algorithm.locator('option').allTextContents()).includes('sha3-256'))
    await algorithm.selectOption({ label: 'sha512' })
    await untilText(page, 'answer-result', 'ddaf35a193617aba', 'startsWith')
    assert.match(page.url(), /algorithm=sha512/)
  })

  test("plain words: a tool's title, its choices' labels and its help, while the link keeps the API's names", async () => {
    await page.goto(`${origin}/tools/timestamp`)
    await settled()
    assert.equal(await page.locator('h1').textContent(), 'Unix timestamp')
    assert.match(await page.title(), /^Unix timestamp: /)
    const action = page.locator('.field-action select')
    assert.deepEqual(await action.locator('option').allTextContents(), ['Default', 'Timestamp to date', 'Date to timestamp'])
    const help = (await page.locator('.field-action .help').textContent()) ?? ''
    assert.match(help, /“Timestamp to date” for a number/)
    assert.doesNotMatch(help, /timestampToDate|dateToTimestamp/)
    await action.selectOption({ label: 'Date to timestamp' })
    await page.locator('.field-input textarea, .field-input input').first().fill('2024-01-02T03:04:05Z')
    await untilText(page, 'answer-status', 'Answered', 'startsWith')
    assert.match(page.url(), /action=dateToTimestamp/)
    // A required field is asked for by the status line, with no badge beside help that says it may be empty.
    await page.goto(`${origin}/tools/yaml-json`)
    assert.equal(await page.locator('h1').textContent(), 'YAML and JSON')
    assert.deepEqual(await page.locator('.field-action select option').allTextContents(), ['YAML → JSON', 'JSON → YAML'])
    assert.equal(await settled(), 'Paste the input, or pick an example.')
    assert.equal(await page.locator('.field-input .badge').count(), 0)
  })

  async function untilAnswer(target: Page = page): Promise<string> {
    assert.match(await settled(target), /Answered/)
    return (await target.locator('#answer-result').textContent()) ?? ''
  }

  test('otp opens clean, asking for the secret', async () => {
    const statuses = apiStatuses()
    await page.goto(`${origin}/tools/otp`)
    assert.equal(await settled(), 'Type the secret to generate, or pick an example.')
    assert.doesNotMatch((await page.locator('#answer-status').getAttribute('class')) ?? '', /error/)
    assert.deepEqual(statuses, [])
  })

  test("json: choosing query before typing a path sends nothing and keeps the last answer, marked as the previous input's", async () => {
    const statuses = apiStatuses()
    await page.goto(`${origin}/tools/json`)
    await page.locator('.field-input textarea').fill('{"a": [1, 2]}')
    await untilText(page, 'answer-status', 'Answered', 'startsWith')
    const formatted = await page.locator('#answer').textContent()
    await page.locator('.field-action select').selectOption({ label: 'query' })
    await untilText(page, 'answer-status', 'Type the path to query', 'startsWith')
    await delay(400)
    assert.match((await page.locator('#answer-status').textContent()) ?? '', /The answer below is for the previous input\.$/)
    assert.equal(await page.locator('#answer').textContent(), formatted)
    assert.equal(await page.locator('#answer').getAttribute('data-stale'), '')
    assert.ok(await page.locator('.field-path').isVisible(), 'the path the query needs is in view')
    await page.locator('.field-path input, .field-path textarea').fill('$.a[1]')
    await untilText(page, 'answer-status', 'Answered', 'startsWith')
    assert.equal(await page.locator('#answer').getAttribute('data-stale'), null)
    assert.deepEqual((await shownData()).result, [2])
    // json runs in the page: neither answer was asked of the service.
    assert.deepEqual(statuses, [])
  })

  test('a shared jwt verify link says its token and secret were deliberately left out, and runs once they are typed', async () => {
    const example = operationsByName.get('jwt')!.examples.find((candidate) => (candidate.input as Record<string, unknown>).action === 'verify')!
    const { secret, ...shared } = example.input as Record<string, string>
    const statuses = apiStatuses()
    // Even a hand-made link that holds the token is not read for it.
    await page.goto(`${origin}/tools/jwt#${new URLSearchParams(Object.entries(shared).map(([key, value]): [string, string] => [key, String(value)]))}`)
    assert.equal(await settled(), 'The input and the secret or the key were deliberately left out of the link, as secrets always are: type them to verify.')
    assert.equal(await page.locator('.field-input textarea').inputValue(), '')
    assert.deepEqual(statuses, [])
    await page.locator('.field-input textarea').fill(shared.input)
    await untilText(page, 'answer-status', 'The secret or the key was deliberately left out of the link', 'startsWith')
    await page.locator('.field-secret textarea, .field-secret input').fill(secret)
    await untilText(page, 'answer-status', 'Answered', 'startsWith')
    assert.equal((await shownData()).valid, true)
  })

  test('the pipeline page chains operations, and its URL reproduces the chain', async () => {
    await page.goto(`${origin}/pipeline`)
    await page.locator('.field-input textarea').first().fill('hello')
    await untilText(page, 'answer-result', 'aGVsbG8=')
    // A step is added empty: nothing runs until its operation is chosen.
    const statuses = apiStatuses()
    await page.locator('#add-step').click()
    assert.equal(await page.locator('#step-1-operation').inputValue(), '')
    await untilText(page, 'answer-status', 'Choose the operation of step 2.')
    assert.deepEqual(statuses, [])
    await page.locator('#step-1-operation').selectOption('hex-text')
    await untilText(page, 'answer-result', '614756736247383d')
    // Each step's result is shown under it.
    assert.equal(await page.locator('[data-step="0"] [data-step-result="0"]').textContent(), 'aGVsbG8=')
    assert.equal(await page.locator('[data-step="1"] [data-step-result="1"]').textContent(), '614756736247383d')
    const shared = page.url()
    assert.doesNotMatch(shared, /step-/)
    const other = await context.newPage()
    await other.goto(shared)
    await settled(other)
    assert.equal(await other.locator('#answer-result').textContent(), '614756736247383d')
    assert.equal(await other.locator('#step-1-operation').inputValue(), 'hex-text')
    // An error names its step as the page numbers it, and its operation by its title; the code is in the JSON view.
    await other.locator('#step-0-operation').selectOption('base32')
    await other.locator('[data-step="0"] .field-action select').selectOption({ label: 'decode' })
    await untilText(other, 'answer-status', 'Step 1 (Base32): ', 'startsWith')
    assert.equal((await shownData(other)).code, 'INVALID_INPUT')
    assert.equal(await other.locator('[data-step="0"]').getAttribute('class'), 'step panel has-error')
    await other.close()
  })

  test('search finds an operation by a word from its summary', async () => {
    await page.goto(origin)
    const summaryWord = operationsByName.get('url')!.summary.split(' ')[0]
    assert.equal(summaryWord, 'Percent-encode')
    // The cards are drawn once the catalogue has arrived: count them only then.
    await untilText(page, 'search-count', `${operations.length} tools`)
    assert.equal(await page.locator('.cards li:visible').count(), operations.length)
    await page.locator('#search').fill('percent')
    await untilText(page, 'search-count', 'match', 'includes')
    const shown = await page.locator('.cards li:visible').evaluateAll((items) => items.map((item) => item.getAttribute('data-operation')))
    assert.ok(shown.includes('url'), `url is found: ${shown.join(', ')}`)
    assert.ok(!shown.includes('base64'))
    await page.locator('#search').fill('zzzz-qqqq')
    assert.equal(await page.locator('#search-count').textContent(), 'No tool matches.')
  })

  /** Whether the element the selector finds has the focus. */
  const focused = (selector: string, target: Page = page) =>
    target.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`) as Promise<boolean>

  test('search: typing a name or the word for a tool and pressing Enter opens that tool', async () => {
    await page.goto(origin)
    await untilText(page, 'search-count', `${operations.length} tools`)
    assert.ok(await focused('#search'), 'the search box has the focus on load')
    for (const [query, expected] of [
      ['base64', 'base64'],
      ['json', 'json'],
      ['diff', 'diff'],
      ['cron', 'cron'],
      ['url', 'url'],
      ['sha256', 'hash'],
      ['epoch', 'timestamp'],
      ['regex', 'regex'],
      ['uuid', 'uuid'],
      ['jwt', 'jwt'],
    ] as const) {
      await page.goto(origin)
      await untilText(page, 'search-count', `${operations.length} tools`)
      await page.keyboard.type(query)
      await untilText(page, 'search-count', `Enter opens ${titleOf(expected)}.`, 'includes')
      // The cards are in ranked order, the first highlighted: the one Enter opens.
      const order = await page.locator('#matches li').evaluateAll((items) => items.map((item) => item.getAttribute('data-operation')))
      assert.equal(order[0], expected, `${query}: ${order.join(', ')}`)
      assert.deepEqual(await page.locator('li.highlighted').evaluateAll((items) => items.map((item) => item.getAttribute('data-operation'))), [expected])
      assert.ok(await page.locator('li.highlighted .card-enter').isVisible(), 'the highlighted card shows the Enter key')
      await page.keyboard.press('Enter')
      await page.waitForURL(`${origin}/tools/${expected}`)
    }
  })

  test('search: the categories while the box is empty, the arrow keys move the highlight', async () => {
    await page.goto(`${origin}/#q=base`)
    await untilText(page, 'search-count', 'Enter opens', 'includes')
    assert.ok(await page.locator('#matches').isVisible())
    assert.equal(await page.locator('section[aria-labelledby^="category-"]:visible').count(), 0)
    const order = await page.locator('#matches li').evaluateAll((items) => items.map((item) => item.getAttribute('data-operation')))
    assert.ok(order.length >= 4, order.join(', '))
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await untilText(page, 'search-count', `Enter opens ${titleOf(order[2])}.`, 'includes')
    assert.equal(await page.locator('li.highlighted').getAttribute('data-operation'), order[2])
    await page.keyboard.press('ArrowUp')
    await untilText(page, 'search-count', `Enter opens ${titleOf(order[1])}.`, 'includes')
    await page.keyboard.press('Enter')
    await page.waitForURL(`${origin}/tools/${order[1]}`)

    await page.goto(origin)
    await page.locator('#search').fill('base')
    await untilText(page, 'search-count', 'Enter opens', 'includes')
    await page.locator('#search').fill('')
    await untilText(page, 'search-count', `${operations.length} tools`)
    assert.ok(await page.locator('#matches').isHidden())
    assert.equal(await page.locator('li.highlighted').count(), 0)
    assert.equal(await page.locator('.cards li:visible').count(), operations.length)
  })

  test('search: / and Ctrl+K focus the box from any page, / not while typing in a field', async () => {
    await page.goto(origin)
    await untilText(page, 'search-count', `${operations.length} tools`)
    assert.match((await page.locator('#search-hint').textContent()) ?? '', /\/ or Ctrl\+K/)
    assert.ok(await page.locator('#search-hint').isVisible())
    // From elsewhere on the home page.
    await page.locator('h1').focus()
    await page.keyboard.press('/')
    assert.ok(await focused('#search'))
    assert.equal(await page.locator('#search').inputValue(), '', 'the / is not typed into the box')
    await page.locator('h1').focus()
    await page.keyboard.press('Control+K')
    assert.ok(await focused('#search'))

    // From an operation's page: back to the home page, its box focused.
    await page.goto(`${origin}/tools/base64`)
    await settled()
    await page.locator('h1').focus()
    await page.keyboard.press('/')
    await page.waitForURL(`${origin}/`)
    await until('the search box focused', () => focused('#search'))

    await page.goto(`${origin}/tools/base64`)
    await settled()
    const input = page.locator('.field-input textarea')
    await input.click()
    await page.keyboard.type('a/b')
    assert.equal(await input.inputValue(), 'a/b', '/ is typed into a field, not taken as the shortcut')
    assert.equal(new URL(page.url()).pathname, '/tools/base64')
    await page.keyboard.press('Control+K')
    // The field focused as the page is left writes nothing into the home page's address.
    await page.waitForURL(`${origin}/`)
    await until('the search box focused', () => focused('#search'))
    // Back returns to the operation with its fields.
    await page.goBack()
    await page.waitForURL(/\/tools\/base64#/)
    assert.equal(await page.locator('.field-input textarea').inputValue(), 'a/b')
  })

  test('keyboard only: from the home page to an answer', async () => {
    await page.goto(`${origin}/pipeline`)
    await page.keyboard.press('Tab')
    assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Skip to content')
    const reached = async (selector: string) => {
      for (let presses = 0; presses < 40; presses++) {
        if (await focused(selector)) return
        await page.keyboard.press('Tab')
      }
      assert.fail(`Tab never reached ${selector}`)
    }
    await page.goto(origin)
    await page.locator('.cards li').first().waitFor()
    await reached('#search')
    await page.keyboard.type('rot13')
    await page.keyboard.press('Enter')
    await page.waitForURL(`${origin}/tools/rot13`)
    await reached('.field-input textarea')
    await page.keyboard.type('Hello')
    await reached('#run')
    await page.keyboard.press('Enter')
    await untilText(page, 'answer-result', 'Uryyb')
  })

  test('favourites: the star on a tool page puts the tool on the home page, kept after a reload', async () => {
    const own = await newContext()
    const tab = await own.newPage()
    await tab.goto(origin)
    await untilText(tab, 'search-count', `${operations.length} tools`)
    assert.equal(await tab.locator('#favourites').count(), 0, 'no favourites section before there is one')
    await tab.goto(`${origin}/tools/hash`)
    const star = tab.locator('#favourite')
    assert.equal(await star.getAttribute('aria-pressed'), 'false')
    await star.click()
    assert.equal(await star.getAttribute('aria-pressed'), 'true')
    await tab.goto(`${origin}/tools/uuid`)
    await tab.locator('#favourite').click()
    await tab.reload()
    assert.equal(await tab.locator('#favourite').getAttribute('aria-pressed'), 'true', 'the star is remembered')
    await tab.goto(origin)
    await untilText(tab, 'search-count', `${operations.length} tools`)
    const favouriteNames = () => tab.locator('#favourites li').evaluateAll((items) => items.map((item) => item.getAttribute('data-operation')))
    assert.deepEqual(await favouriteNames(), ['hash', 'uuid'])
    await tab.reload()
    await untilText(tab, 'search-count', `${operations.length} tools`)
    assert.deepEqual(await favouriteNames(), ['hash', 'uuid'])
    // Above the categories, and the catalogue's cards are counted once.
    const [favouritesTop, categoriesTop] = (await tab.evaluate(
      `[document.getElementById('favourites').getBoundingClientRect().top, document.querySelector('section[aria-labelledby^="category-"]').getBoundingClientRect().top]`,
    )) as number[]
    assert.ok(favouritesTop < categoriesTop, `${favouritesTop} < ${categoriesTop}`)
    assert.equal(await tab.locator('.cards li:visible').count(), operations.length)
    // Unstarred, it leaves the home page.
    await tab.locator('#favourites a', { hasText: 'hash' }).click()
    await tab.waitForURL(`${origin}/tools/hash`)
    await tab.locator('#favourite').click()
    assert.equal(await tab.locator('#favourite').getAttribute('aria-pressed'), 'false')
    await tab.goto(origin)
    await untilText(tab, 'search-count', `${operations.length} tools`)
    assert.deepEqual(await favouriteNames(), ['uuid'])
    await own.close()
  })

  test('recent tools: the home page lists the tools last opened, the latest first, and hides them while searching', async () => {
    const own = await newContext()
    const tab = await own.newPage()
    for (const name of ['base64', 'hash', 'url']) {
      await tab.goto(`${origin}/tools/${name}`)
      await tab.locator('h1').waitFor()
    }
    await tab.goto(origin)
    await untilText(tab, 'search-count', `${operations.length} tools`)
    const recentNames = () => tab.locator('#recent li').evaluateAll((items) => items.map((item) => item.getAttribute('data-operation')))
    assert.deepEqual(await recentNames(), ['url', 'hash', 'base64'])
    // Opened from the home page, a tool comes first again.
    await tab.locator('#recent a', { hasText: 'base64' }).click()
    await tab.waitForURL(`${origin}/tools/base64`)
    await tab.goBack()
    await tab.waitForURL(`${origin}/`)
    await until('the recent list reordered', async () => JSON.stringify(await recentNames()) === JSON.stringify(['base64', 'url', 'hash']))
    await tab.keyboard.type('jwt')
    await untilText(tab, 'search-count', `Enter opens ${titleOf('jwt')}.`, 'includes')
    assert.ok(await tab.locator('#recent').isHidden(), 'the matches alone while searching')
    await tab.locator('#search').fill('')
    assert.ok(await tab.locator('#recent').isVisible())
    await own.close()
  })

  /** The page's background colour, which the theme sets. */
  const background = (target: Page) => target.evaluate('getComputedStyle(document.body).backgroundColor') as Promise<string>
  const LIGHT_BACKGROUND = 'rgb(247, 248, 250)'
  const DARK_BACKGROUND = 'rgb(17, 20, 24)'

  test('theme: the header switches between the system theme, light and dark, and the choice is remembered', async () => {
    const own = await newContext('light')
    const tab = await own.newPage()
    await tab.goto(origin)
    const theme = tab.locator('#theme')
    assert.equal(await theme.inputValue(), 'system')
    assert.equal(await background(tab), LIGHT_BACKGROUND)
    // By keyboard: the control is in the header, before the search.
    await theme.focus()
    await theme.selectOption('dark')
    assert.equal(await background(tab), DARK_BACKGROUND)
    await tab.reload()
    await tab.locator('h1').waitFor()
    assert.equal(await tab.locator('#theme').inputValue(), 'dark')
    assert.equal(await background(tab), DARK_BACKGROUND, 'dark after a reload')
    await tab.goto(`${origin}/tools/base64`)
    assert.equal(await background(tab), DARK_BACKGROUND, 'dark on every page')
    await tab.locator('#theme').selectOption('system')
    assert.equal(await background(tab), LIGHT_BACKGROUND)
    await tab.reload()
    assert.equal(await tab.locator('#theme').inputValue(), 'system')
    assert.equal(await background(tab), LIGHT_BACKGROUND)
    await own.close()

    // Light chosen on a system in dark.
    const dark = await newContext('dark')
    const darkTab = await dark.newPage()
    await darkTab.goto(origin)
    assert.equal(await background(darkTab), DARK_BACKGROUND)
    await darkTab.locator('#theme').selectOption('light')
    assert.equal(await background(darkTab), LIGHT_BACKGROUND)
    await dark.close()
  })

  test('Base64 pasted into the encoder: the page offers to decode it, and one click decodes; ordinary text is offered nothing', async () => {
    await page.goto(`${origin}/tools/base64`)
    const input = page.locator('.field-input textarea')
    const offer = page.locator('.field-input .other-action')
    assert.equal(await offer.getAttribute('role'), 'status', 'the offer is announced politely')
    await input.fill('hello world')
    await untilText(page, 'answer-result', 'aGVsbG8gd29ybGQ=')
    assert.equal(await offer.textContent(), '')
    await input.fill('SGVsbG8sIHdvcmxkIQ==')
    await untilText(page, 'answer-result', 'U0dWc2JHOHNJSGR2Y214a0lRPT0=')
    const decode = offer.getByRole('button', { name: 'Decode instead' })
    await decode.waitFor()
    assert.equal(await offer.locator('span').textContent(), 'Recognised in the input: Base64.')
    // Run through the DevTools protocol, which the page's CSP does not govern; in the light theme, then the dark.
    await page.evaluate(AXE_SOURCE)
    for (const theme of ['light', 'dark']) {
      await page.locator('#theme').selectOption(theme)
      const violations = await page.evaluate(
        `axe.run('.field-input').then(({ violations }) => violations.filter((violation) => ['serious', 'critical'].includes(violation.impact)).map((violation) => violation.id))`,
      )
      assert.deepEqual(violations, [], `${theme} theme`)
    }
    await page.locator('#theme').selectOption('system')
    await decode.click()
    await untilText(page, 'answer-result', 'Hello, world!')
    assert.equal(await page.locator('.field-action select option:checked').textContent(), 'decode')
    assert.ok(await focused('.field-action select'), 'the focus is on the action just chosen')
    assert.match(page.url(), /action=decode/)
    await until('the offer withdrawn', async () => (await offer.textContent()) === '')
  })

  test('sizes under the input and the answer, and "Use as input" puts the answer into the input', async () => {
    await page.goto(`${origin}/tools/base64`)
    const input = page.locator('.field-input textarea')
    await input.fill('héllo')
    await untilText(page, 'answer-result', 'aMOpbGxv')
    assert.equal(await page.locator('#input-size').textContent(), 'Input: 5 characters, 6 bytes')
    assert.equal(await page.locator('#answer-size').textContent(), 'Answer: 8 characters, 8 bytes')
    assert.ok(await page.locator('#input-size').isVisible())
    await input.fill('héllo wörld')
    await untilText(page, 'input-size', 'Input: 11 characters, 13 bytes')
    await untilText(page, 'answer-result', 'aMOpbGxvIHfDtnJsZA==')
    assert.equal(await page.locator('#answer-size').textContent(), 'Answer: 20 characters, 20 bytes')
    await page.locator('#use-as-input').click()
    assert.equal(await input.inputValue(), 'aMOpbGxvIHfDtnJsZA==')
    await untilText(page, 'answer-result', 'YU1PcGJHeHZJSGZEdG5Kc1pBPT0=')
    assert.equal(await page.locator('#input-size').textContent(), 'Input: 20 characters, 20 bytes')
    assert.match(page.url(), /input=aMOpbGxvIHfDtnJsZA/)
    // An image answer is no text to reuse.
    await page.goto(`${origin}/tools/qr-code#input=hi`)
    await settled()
    assert.ok(await page.locator('#answer-image').isVisible())
    assert.equal(await page.locator('#use-as-input').count(), 0)
  })

  test('offline: with the service worker active, the pages open with the network off, and a call says it is offline', async () => {
    const own = await newContext()
    const tab = await own.newPage()
    // The cache an earlier build left, and another's, made from an address of the origin where no page registers the worker.
    await tab.goto(`${origin}/api/v1`)
    await tab.evaluate(`Promise.all([caches.open('devutils-earlier-build'), caches.open('another-app')])`)
    await tab.goto(`${origin}/tools/base64`)
    await until('the service worker controlling the page', async () => (await tab.evaluate('navigator.serviceWorker.controller !== null')) as boolean)
    // This build's cache replaces the earlier one.
    assert.deepEqual(((await tab.evaluate('caches.keys()')) as string[]).sort(), ['another-app', await cacheName()].sort())
    const cdp = await own.newCDPSession(tab)
    // Chromium's own check of the manifest, the icon and the worker; a test's context is a private window, where nothing installs.
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
    assert.deepEqual(
      installabilityErrors.filter(({ errorId }) => errorId !== 'in-incognito'),
      [],
      'Chromium would install the app',
    )
    await cdp.send('Network.enable')
    const network = (offline: boolean) => cdp.send('Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    await network(true)
    try {
      assert.equal(await tab.evaluate('navigator.onLine'), false)
      await tab.goto(origin)
      await untilText(tab, 'search-count', `${operations.length} tools`)
      assert.equal(await tab.locator('.cards li:visible').count(), operations.length)
      await tab.reload()
      await untilText(tab, 'search-count', `${operations.length} tools`)
      await tab.goto(`${origin}/tools/base64`)
      assert.equal(await tab.locator('h1').textContent(), 'Base64')
      await tab.reload()
      assert.equal(await tab.locator('h1').textContent(), 'Base64')
      await tab.goto(`${origin}/pipeline`)
      assert.equal(await tab.locator('h1').textContent(), 'Pipeline')
      // An operation that runs in the browser answers offline, its code from the worker's cache.
      await tab.goto(`${origin}/tools/case#input=hello%20world&to=camel`)
      await untilText(tab, 'answer-result', 'helloWorld')
      // A call to the service: a prompt message, not a wait.
      await tab.goto(`${origin}/tools/markdown`)
      const started = Date.now()
      await tab.locator('.field-input textarea').fill('hello')
      await untilText(tab, 'answer-status', 'you are offline', 'includes')
      assert.ok(Date.now() - started < 5000)
      assert.equal(await tab.locator('#answer-status').getAttribute('class'), 'status error')
    } finally {
      await network(false)
    }
    await tab.locator('#run').click()
    await untilText(tab, 'answer-result', 'hello', 'includes')
    await own.close()

    /** The cache the build named in the worker's script. */
    async function cacheName(): Promise<string> {
      const script = (await request(app, { method: 'GET', url: '/sw.js' })).body
      return /"(devutils-[\w-]+)"/.exec(script)?.[1] ?? 'none'
    }
  })

  /** The top of the element the selector finds, against the viewport's height, where the page is scrolled to now. */
  const placement = (target: Page, selector: string) =>
    target.evaluate(`(() => {
      const element = document.querySelector(${JSON.stringify(selector)})
      return { top: element ? element.getBoundingClientRect().top : NaN, height: innerHeight }
    })()`) as Promise<{ top: number; height: number }>

  async function assertInView(target: Page, selector: string, label: string) {
    const { top, height } = await placement(target, selector)
    assert.ok(top >= 0 && top < height - 40, `${label}: the top of ${selector} is at ${top} px in a viewport ${height} px high`)
  }

  /** The text a person sees: the rendered text leaves out what is hidden, such as the JSON folded away. */
  // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is what is asserted
  const seen = (selector: string, target: Page = page) => target.locator(selector).innerText()

  const COLOR_CONTRAST_EXAMPLE = operationsByName.get('color')!.examples.findIndex((example) => 'contrastWith' in (example.input as object))
  const RFC7519_TOKEN = String((operationsByName.get('jwt')!.examples[0].input as { input: string }).input)
  const UUID_LIST_EXAMPLE = operationsByName.get('uuid')!.examples.findIndex((example) => (example.input as { count?: number }).count === 3)

  test('the answer is in view after typing, on a phone (under the main field) and on a desktop (beside the input)', async () => {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      const sized = await newContext('light', viewport)
      const view = await sized.newPage()
      await view.goto(`${origin}/tools/base64`)
      await settled(view)
      await view.locator('.field-input textarea').click()
      await view.keyboard.type('hello')
      await untilText(view, 'answer-result', 'aGVsbG8=')
      await assertInView(view, '#answer', `base64 at ${viewport.width}`)
      if (viewport.width < 1000) {
        // The main field, then the answer, then the examples and the options.
        const order = (await view.evaluate(
          `['.field-input', '#answer', '.examples', '.field-action'].map((selector) => document.querySelector(selector).getBoundingClientRect().top)`,
        )) as number[]
        assert.deepEqual(
          [...order].sort((a, b) => a - b),
          order,
          `top to bottom: main field, answer, examples, options (${order.join(', ')})`,
        )
      }

      await view.goto(`${origin}/tools/jwt`)
      await settled(view)
      await view.locator('.field-input textarea').click()
      await view.locator('.field-input textarea').fill(RFC7519_TOKEN)
      await view.locator('table.record caption', { hasText: 'header' }).waitFor()
      await assertInView(view, '#answer', `jwt at ${viewport.width}`)
      await sized.close()
    }
  })

  test('on a desktop, changing an option far down the form keeps the answer in view', async () => {
    const sized = await newContext('light', { width: 1280, height: 800 })
    const view = await sized.newPage()
    await view.goto(`${origin}/tools/csv-json`)
    await settled(view)
    await view.locator('.field-input textarea').fill('name,age\nada,36')
    await untilText(view, 'answer-result', 'ada', 'includes')
    // The options unfolded, and the last of them, below the fold: the page scrolls to it.
    await view.locator('details.options summary').click()
    const last = view.locator('details.options .field:visible').last().locator('input, textarea, select').first()
    await last.scrollIntoViewIfNeeded()
    assert.ok(((await view.evaluate('scrollY')) as number) > 200, 'the form is taller than the window: the page scrolled')
    await last.focus()
    await view.keyboard.type('1')
    await settled(view)
    await assertInView(view, '#answer-heading', 'csv-json after an option changed')
    await sized.close()
  })

  test('views: the next runs of a cron expression with their weekdays and how far away they are', async () => {
    await page.goto(`${origin}/tools/cron`)
    await page.locator('.field-input input, .field-input textarea').first().fill('30 2 * * *')
    await page.locator('ol.instants li').first().waitFor()
    const runs = await page.locator('ol.instants li').allTextContents()
    assert.equal(runs.length, ((await shownData()).next as unknown[]).length)
    for (const run of runs) {
      assert.match(run, /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b/, run)
      assert.match(run, /\bin \d+ (s|min|h|days?|weeks?)\b/, run)
    }
    assert.doesNotMatch(await seen('.answer'), /\["20/, 'no quoted list of dates')
  })

  test('views: a colour as a swatch with its contrast verdicts as badges, and no empty notes', async () => {
    await page.goto(`${origin}/tools/color`)
    await page.locator('details.options summary').click()
    await page.locator('.field-contrastWith input, .field-contrastWith textarea').first().fill('white')
    await page.locator('.field-input input, .field-input textarea').first().fill('teal')
    await untilText(page, 'answer-result', '#008080')
    const swatch = page.locator('.swatch-colour')
    assert.ok(await swatch.isVisible())
    assert.equal(await page.evaluate("getComputedStyle(document.querySelector('.swatch-colour')).backgroundColor"), 'rgb(0, 128, 128)')
    const badges = await page.locator('.verdict-badge').allTextContents()
    assert.deepEqual(badges, ['✓ AA normal text: pass', '✓ AA large text: pass', '✗ AAA normal text: fail', '✓ AAA large text: pass'])
    assert.match(await seen('.verdicts'), /ratio: 4\.\d+/i)
    assert.deepEqual((await shownData()).notes, [])
    assert.doesNotMatch(await seen('.answer'), /notes|\[\]/)
  })

  test('views: a decoded JWT shows its header before its claims, exp as a date, and its warnings as a list', async () => {
    await page.goto(`${origin}/tools/jwt`)
    await page.locator('.field-input textarea').fill(RFC7519_TOKEN)
    await page.locator('table.record caption', { hasText: 'result' }).waitFor()
    const captions = await page.locator('table.record caption').allTextContents()
    assert.deepEqual(captions, ['header', 'result'], 'the header first, then the claims, with their dates inside')
    const exp = page.locator('table.record tr', { has: page.locator('th', { hasText: /^exp$/ }) })
    assert.equal(await exp.locator('time').getAttribute('datetime'), '2011-03-22T18:43:00.000Z')
    assert.match((await exp.textContent()) ?? '', /1300819380[\s\S]*(Mon|Tue|Wed)[\s\S]*2011[\s\S]*expired \d+ years ago/)
    const warnings = page.locator('section[aria-label="warnings"] li')
    assert.equal(await warnings.count(), 1)
    assert.doesNotMatch((await warnings.textContent()) ?? '', /^\[?"/)

    // Signing answers an empty list of warnings: not shown.
    await page.locator('button[data-example="3"]').click()
    assert.match(await settled(), /Answered/)
    assert.deepEqual((await shownData()).warnings, [])
    assert.equal(await page.locator('section[aria-label="warnings"]').count(), 0)
    assert.doesNotMatch(await seen('.answer'), /warnings/)
  })

  test('views: a diff unified or side by side, each hunk shown once, with its counts', async () => {
    const lines = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`)
    const changed = lines.map((line, index) => (index === 2 ? 'line three' : index === 25 ? 'line twenty-six' : line))
    await page.goto(`${origin}/tools/diff#${new URLSearchParams({ input: `${lines.join('\n')}\n`, compareTo: `${changed.join('\n')}\n` })}`)
    assert.match(await settled(), /Answered/)
    const hunks = (await shownData()).hunks as unknown[]
    assert.equal(hunks.length, 2)
    assert.match(await seen('.diff-counts'), /\+2\s+−2/)
    const visibleHunks = async () => ((await seen('.answer')).match(/@@ -\d/g) ?? []).length
    assert.equal(await visibleHunks(), 2, 'unified: each hunk once')
    await page.getByRole('button', { name: 'Side by side' }).click()
    assert.equal(await page.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed'), 'true')
    assert.ok(await page.locator('table.side-by-side').isVisible())
    assert.ok(await page.locator('pre.patch').isHidden())
    assert.equal(await page.locator('table.side-by-side tr.hunk').count(), 2)
    assert.equal(await visibleHunks(), 2, 'side by side: each hunk once')
    const row = page.locator('table.side-by-side tr', { has: page.locator('td.removed') }).first()
    assert.deepEqual(await row.locator('td').allTextContents(), ['3', '− line 3', '3', '+ line three'])
    await page.getByRole('button', { name: 'Unified', exact: true }).click()
    assert.ok(await page.locator('pre.patch').isVisible())
  })

  test('views: a QR code is shown and downloads as a PNG file named after the tool', async () => {
    await page.goto(`${origin}/tools/qr-code`)
    await page.locator('.field-input textarea, .field-input input').first().fill('https://example.com/')
    await page.locator('#answer-image').waitFor()
    const downloading = page.waitForEvent('download')
    await page.locator('#download-png').click()
    const download = await downloading
    assert.equal(download.suggestedFilename(), 'qr-code.png')
    const file = readFileSync((await download.path())!)
    assert.deepEqual([...file.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file')
    const svg = page.getByRole('button', { name: 'Download SVG' })
    const svgDownloading = page.waitForEvent('download')
    await svg.click()
    const svgFile = await svgDownloading
    assert.equal(svgFile.suggestedFilename(), 'qr-code.svg')
    assert.match(readFileSync((await svgFile.path())!, 'utf8'), /^<svg|^<\?xml/)

    // Copied as an image where the clipboard takes one, not as its markup.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
    // The button says "Copied" (or "…: failed") for a moment only: watched in the page, a slow poll cannot miss it.
    await page.evaluate(`void (window.copyLabel = new Promise((resolve) => {
      const button = [...document.querySelectorAll('button')].find((element) => element.textContent === 'Copy image')
      new MutationObserver(() => button.textContent !== 'Copy image' && resolve(button.textContent)).observe(button, { childList: true, characterData: true, subtree: true })
      setTimeout(() => resolve('no change within 15 s'), 15000)
    }))`)
    await page.getByRole('button', { name: 'Copy image' }).click()
    assert.equal(await page.evaluate('window.copyLabel'), 'Copied')
    const types = await page.evaluate('navigator.clipboard.read().then((items) => items.flatMap((item) => item.types))')
    assert.deepEqual(types, ['image/png'])
  })

  test('a link holds the fields up to 8 KB: past that the address keeps none of them and the page says so', async () => {
    await page.goto(`${origin}/tools/base64`)
    const input = page.locator('.field-input textarea')
    await input.fill('a'.repeat(9000))
    await untilText(page, 'answer-status', 'Answered', 'startsWith')
    assert.equal(new URL(page.url()).hash, '')
    assert.match((await page.locator('.share-note').textContent()) ?? '', /^Too large to share: a link holds the fields up to 8 KB/)
    await input.fill('hi')
    await untilText(page, 'answer-result', 'aGk=')
    assert.equal(new URL(page.url()).hash, '#input=hi')
    assert.equal(await page.locator('.share-note').textContent(), '')
  })

  test('files: opened or dropped into a tool of bytes as base64, into a tool of text as text, and one too large refused in plain words', async () => {
    const bytes = Buffer.from([0x00, 0x01, 0xfe, 0xff, 0x80])
    await page.goto(`${origin}/tools/hash`)
    await page.locator('.field-input input[type="file"]').setInputFiles({ name: 'five.bin', mimeType: 'application/octet-stream', buffer: bytes })
    await untilText(page, 'answer-result', createHash('sha256').update(bytes).digest('hex'))
    assert.equal(await page.locator('.field-input textarea').inputValue(), bytes.toString('base64'))
    assert.equal(await page.locator('.field-inputEncoding select option:checked').textContent(), 'base64')
    assert.equal(await page.locator('.file-note').textContent(), 'Opened five.bin (5 bytes) as base64.')

    // Dropped anywhere on the page: the bytes of a text file, not its text.
    await page.goto(`${origin}/tools/hash`)
    const transfer = await page.evaluateHandle(
      `(() => { const transfer = new DataTransfer(); transfer.items.add(new File(['abc'], 'abc.txt', { type: 'text/plain' })); return transfer })()`,
    )
    await page.locator('article.tool').dispatchEvent('drop', { dataTransfer: transfer })
    await untilText(page, 'answer-result', createHash('sha256').update('abc').digest('hex'))

    // A tool of text reads the file as UTF-8 text; bytes that are not UTF-8 are said to be so.
    await page.goto(`${origin}/tools/json`)
    const picker = page.locator('.field-input input[type="file"]')
    await picker.setInputFiles({ name: 'a.json', mimeType: 'application/json', buffer: Buffer.from('{"é": [1]}') })
    await untilText(page, 'answer-status', 'Answered', 'startsWith')
    assert.equal(await page.locator('.field-input textarea').inputValue(), '{"é": [1]}')
    await picker.setInputFiles({ name: 'b.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0xff, 0xfe, 0x00]) })
    await untilText(page, 'open-file', 'Open file…')
    assert.equal(await page.locator('.file-note').textContent(), 'b.bin is not UTF-8 text, and this tool reads text.')

    // Larger than a request may carry as base64: refused before it is read or sent.
    await page.goto(`${origin}/tools/hash`)
    const statuses = apiStatuses()
    await page
      .locator('.field-input input[type="file"]')
      .setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(800 * 1024) })
    await until('the refusal', async () => ((await page.locator('.file-note').textContent()) ?? '') !== '')
    assert.equal(
      await page.locator('.file-note').textContent(),
      'big.bin is 800 KB: this tool takes files up to 767 KB, as a request to the service holds at most 1.0 MB.',
    )
    assert.deepEqual(statuses, [])

    // An image to decode: the barcode tool's decode action is chosen for it.
    const generated = await request(app, { method: 'POST', url: '/api/v1/qr-code', payload: { input: 'from a file', format: 'png' } })
    const { result: png } = generated.json().data as { result: string }
    await page.goto(`${origin}/tools/barcode`)
    await page.locator('.field-input input[type="file"]').setInputFiles({ name: 'code.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') })
    await until('the decoded text', async () => (await page.locator('#answer').textContent())?.includes('from a file') === true)
    assert.equal(await page.locator('.field-action select option:checked').textContent(), 'decode')
  })

  test('a text result downloads as a file named after the tool', async () => {
    await page.goto(`${origin}/tools/base64#input=hi`)
    await untilText(page, 'answer-result', 'aGk=')
    const downloading = page.waitForEvent('download')
    await page.locator('#download-result').click()
    const download = await downloading
    assert.equal(download.suggestedFilename(), 'base64.txt')
    assert.equal(readFileSync((await download.path())!, 'utf8'), 'aGk=')
  })

  /** What pressing `button` puts on the clipboard (emptied first, so that an earlier copy is never read as this one's). */
  async function copiedBy(button: ReturnType<Page['locator']>, target: Page = page): Promise<string> {
    await target.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
    await target.evaluate(`navigator.clipboard.writeText('')`)
    await button.click()
    let copied = ''
    await until('the copied text', async () => {
      copied = (await target.evaluate('navigator.clipboard.readText()')) as string
      return copied !== ''
    })
    return copied
  }

  test('answers: a list of values is shown one a line, Copy all copies them one a line and Download saves them as text', async () => {
    for (const [name, count, shape] of [
      ['uuid', 5, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/],
      ['password', 3, /^\S{16}$/],
    ] as const) {
      await page.goto(`${origin}/tools/${name}#count=${count}`)
      await until(`${name}: ${count} values`, async () => (await page.locator('#answer-list li').count()) === count)
      const { results } = (await shownData()) as { results: string[] }
      assert.deepEqual(await page.locator('#answer-list li').allTextContents(), results, name)
      const copied = await copiedBy(page.locator('.result').getByRole('button', { name: 'Copy all' }))
      assert.equal(copied, results.join('\n'), `${name}: every value, one a line`)
      for (const line of copied.split('\n')) assert.match(line, shape, name)
      assert.equal(await page.locator('section[aria-label="results"]').count(), 0, `${name}: the list is not shown twice`)
      const downloading = page.waitForEvent('download')
      await page.locator('#download-result').click()
      const download = await downloading
      assert.equal(download.suggestedFilename(), `${name}.txt`)
      assert.equal(readFileSync((await download.path())!, 'utf8'), copied)
    }
  })

  test("answers: a converter's document is shown as its JSON text first, and Copy copies that text alone", async () => {
    await page.goto(`${origin}/tools/yaml-json#${new URLSearchParams({ input: 'name: devutils\ntags: [yaml, json]\n' })}`)
    await untilText(page, 'answer-result', '"name": "devutils"', 'includes')
    const copied = await copiedBy(page.locator('.result').getByRole('button', { name: 'Copy', exact: true }))
    assert.equal(copied, JSON.stringify({ name: 'devutils', tags: ['yaml', 'json'] }, null, 2))
    assert.equal(await page.locator('table.record caption', { hasText: 'result' }).count(), 0, 'no key and value table of the document')
    assert.equal(await page.locator('details.raw summary').textContent(), 'The whole answer as JSON')
  })

  test('answers: what a pattern or an extraction found is marked in the text, with a table of each and its groups', async () => {
    for (const [name, fields, text, marks, headings, firstRow] of [
      ['regex', { pattern: '(?<key>\\w+)=(\\d+)' }, 'a=1, b=22', ['a=1', 'b=22'], ['#', 'Text', 'Position', 'key', '$2'], ['1', 'a=1', '0–3', 'a', '1']],
      [
        'extract',
        {},
        'see https://example.com and 10.0.0.5',
        ['https://example.com', '10.0.0.5'],
        ['#', 'Text', 'Position', 'type', 'line', 'column', 'details'],
        ['1', 'https://example.com', '4–23', 'url', '1', '5'],
      ],
    ] as const) {
      await page.goto(`${origin}/tools/${name}#${new URLSearchParams(fields)}`)
      // Typed, as extract's input is never taken from a link.
      await page.locator('.field-input textarea').fill(text)
      await until(`${name}: the marks`, async () => (await page.locator('#answer-marked mark').count()) === marks.length)
      assert.deepEqual(await page.locator('#answer-marked mark').allTextContents(), marks, name)
      assert.equal(await page.locator('#answer-marked').textContent(), text, `${name}: the whole text, marks and all`)
      assert.deepEqual(await page.locator('.spans-table thead th').allTextContents(), headings, name)
      const cells = await page.locator('.spans-table tbody tr').first().locator('th, td').allTextContents()
      assert.deepEqual(cells.slice(0, firstRow.length), firstRow, name)
      assert.equal(await copiedBy(page.locator('.result').getByRole('button', { name: 'Copy all' })), marks.join('\n'), name)
      assert.equal(await page.locator('#answer-result').count(), 0, `${name}: no JSON of the matches in place of the marks`)
    }
  })

  test("answers: detect's next step is a button that opens its tool on the text and runs it, the text never in the address", async () => {
    for (const [text, operation, answered] of [
      ['1700000000', 'timestamp', () => untilText(page, 'answer-result', '2023-11-14T22:13:20.000Z')],
      [RFC7519_TOKEN, 'jwt', () => page.locator('table.record caption', { hasText: 'result' }).waitFor()],
    ] as const) {
      await page.goto(`${origin}/tools/detect`)
      await page.locator('.field-input textarea').fill(text)
      const step = page.locator('a.next-step', { hasText: `Open in ${operation}` }).first()
      await step.waitFor()
      await step.click()
      await until(`the ${operation} page`, async () => new URL(page.url()).pathname === `/tools/${operation}`)
      await answered()
      assert.equal(await page.locator('.field-input textarea').inputValue(), text, operation)
      if (operation === 'jwt') assert.doesNotMatch(page.url(), /eyJ/, 'a token never goes in the address')
    }
  })

  test('answers: a time zone is picked from suggestions, and the result is written in it', async () => {
    await page.goto(`${origin}/tools/timestamp#input=1700000000`)
    await untilText(page, 'answer-result', '2023-11-14T22:13:20.000Z')
    const zone = page.locator('.field-timezone input')
    const list = await zone.getAttribute('list')
    const suggestions = (await page.evaluate(`[...document.getElementById('${list}').options].map((option) => option.value)`)) as string[]
    assert.equal(suggestions[0], 'UTC')
    assert.ok(suggestions.includes('Europe/Berlin') && suggestions.includes('America/New_York'), `${suggestions.length} zones`)
    for (const [timezone, shown, heading] of [
      ['Europe/Berlin', '2023-11-14T23:13:20.000+01:00', 'result in Europe/Berlin'],
      ['Asia/Kolkata', '2023-11-15T03:43:20.000+05:30', 'result in Asia/Kolkata'],
      ['UTC', '2023-11-14T22:13:20.000Z', 'result'],
    ] as const) {
      await page.goto(`${origin}/tools/timestamp#${new URLSearchParams({ input: '1700000000', timezone })}`)
      await untilText(page, 'answer-result', shown)
      assert.equal(await page.locator('.result h3').textContent(), heading)
      assert.equal((await shownData()).result, '2023-11-14T22:13:20.000Z', 'the API still answers UTC')
      // The UTC form stays in view when the result is shown in another zone.
      if (timezone !== 'UTC') assert.match(await seen('.data-fields'), /2023-11-14T22:13:20\.000Z/)
    }
  })

  /**
   * A person's task on a desktop, counted in steps from the home page: each key pressed, text typed
   * or pasted, click, choice, dropped file or address opened is one; pasting into a field that does
   * not have the focus is two (a click, then the paste). Each task ends with its answer in view,
   * and how long the answer took after the last step is reported.
   */
  class Task {
    steps = 0
    #lastStep = 0
    constructor(readonly view: Page) {}
    async #step<T>(action: () => Promise<T>): Promise<T> {
      this.steps++
      const result = await action()
      this.#lastStep = performance.now()
      return result
    }
    type = (text: string) => this.#step(() => this.view.keyboard.type(text))
    press = (key: string) => this.#step(() => this.view.keyboard.press(key))
    click = (selector: string) => this.#step(() => this.view.locator(selector).click())
    choose = (selector: string, label: string) => this.#step(() => this.view.locator(selector).selectOption({ label }))
    open = (url: string) => this.#step(async () => void (await this.view.goto(url)))
    /** Pastes from the clipboard, as a person does (Playwright's fill types a multi-line text line by line, far slower than a paste). */
    async paste(selector: string, text: string) {
      if (!(await focused(selector, this.view))) await this.click(selector)
      await this.view.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`)
      await this.press('Control+V')
    }
    drop = (name: string, bytes: Buffer) =>
      this.#step(async () => {
        const transfer = await this.view.evaluateHandle(
          `(() => { const transfer = new DataTransfer(); transfer.items.add(new File([Uint8Array.from(atob(${JSON.stringify(bytes.toString('base64'))}), (c) => c.charCodeAt(0))], ${JSON.stringify(name)})); return transfer })()`,
        )
        await this.view.locator('article.tool').dispatchEvent('drop', { dataTransfer: transfer })
      })
    /** Opens a tool as a person does from the home page: its name typed into the focused search, then Enter. */
    async find(query: string, operation: string) {
      await this.type(query)
      await untilText(this.view, 'search-count', `Enter opens ${titleOf(operation)}.`, 'includes')
      await this.press('Enter')
      await this.view.waitForURL(`${origin}/tools/${operation}`)
    }
    /** Waits for the answer `shown` checks, then says how long it took after the last step; the answer must be in view. */
    async answered(what: string, shown: () => Promise<boolean>): Promise<number> {
      await until(what, shown)
      const took = performance.now() - this.#lastStep
      await assertInView(this.view, '#answer', what)
      return took
    }
  }

  test("ten tasks as a person does them, each in few steps with its answer in view (the counts are in the README beside it-tools')", async (t) => {
    const sized = await newContext('light', { width: 1280, height: 800 })
    await sized.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
    const view = await sized.newPage()
    const home = async () => {
      await view.goto(origin)
      await untilText(view, 'search-count', `${operations.length} tools`)
      return new Task(view)
    }
    const resultText = () => view.locator('#answer-result').textContent()
    const report: string[] = []
    const done = (name: string, task: Task, expectedSteps: number, took: number) => {
      assert.equal(task.steps, expectedSteps, `${name}: steps`)
      assert.ok(took < 10_000, `${name}: the answer took ${took.toFixed(0)} ms`)
      report.push(`${name}: ${task.steps} steps, answered ${took.toFixed(0)} ms after the last`)
    }

    let task = await home()
    await task.find('jwt', 'jwt')
    await task.paste('.field-input textarea', RFC7519_TOKEN)
    done('decode a pasted JWT', task, 3, await task.answered('the claims', () => view.locator('table.record caption', { hasText: 'result' }).isVisible()))

    task = await home()
    await task.find('json', 'json')
    const items = Array.from({ length: 3500 }, (_, index) => ({ id: index, name: `item ${index}`, tags: ['a', 'b', 'c'], price: index / 4 }))
    const document = JSON.stringify({ items })
    assert.ok(document.length > 200_000)
    await task.paste('.field-input textarea', document)
    await task.answered('the formatted JSON', async () => ((await resultText()) ?? '').startsWith('{\n  "items": ['))
    await task.choose('.field-action select', 'query')
    await task.paste('.field-path input, .field-path textarea', '$.items[3].name')
    done('pretty-print 200 KB of JSON and query it', task, 6, await task.answered('the query', async () => (await resultText()) === '[\n  "item 3"\n]'))

    task = await home()
    await task.find('diff', 'diff')
    const lines = Array.from({ length: 2000 }, (_, index) => `line ${index}`)
    await task.paste('.field-input textarea', lines.join('\n'))
    await task.paste('.field-compareTo textarea', lines.map((line, index) => (index % 500 === 7 ? `${line} changed` : line)).join('\n'))
    await task.answered('the diff', () => view.getByRole('button', { name: 'Side by side' }).isVisible())
    await task.click('button:has-text("Side by side")')
    done('diff two 2,000-line texts side by side', task, 6, await task.answered('side by side', () => view.locator('.side-by-side').first().isVisible()))

    task = await home()
    await task.find('cron', 'cron')
    await task.type('*/15 9-17 * * 1-5')
    done(
      'the next three runs of a cron expression',
      task,
      3,
      await task.answered('the next runs', async () => (await view.locator('#answer .instants li').count()) >= 3),
    )

    task = await home()
    const file = Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 31) & 0xff))
    await task.find('sha256', 'hash')
    await task.drop('data.bin', file)
    const sha256 = createHash('sha256').update(file).digest('hex')
    done('sha256 of a file dropped on the page', task, 3, await task.answered('the digest', async () => (await resultText()) === sha256))

    task = await home()
    await task.find('qr', 'qr-code')
    await task.type('https://example.com/')
    const image = await task.answered('the QR code', () => view.locator('#answer-image').isVisible())
    const downloading = view.waitForEvent('download')
    await task.click('#download-png')
    assert.equal((await downloading).suggestedFilename(), 'qr-code.png')
    done('a QR code downloaded as PNG', task, 4, image)

    task = await home()
    await task.click('.site-header a[href="/pipeline"]')
    await task.paste('.field-input textarea', Buffer.from('{"a":[1,2]}').toString('base64'))
    await task.choose('[data-step="0"] .field-action select', 'decode')
    await task.click('#add-step')
    await view.locator('#step-1-operation').selectOption('json')
    task.steps++
    done(
      'base64-decode then pretty-print, as a pipeline',
      task,
      6,
      await task.answered('the JSON', async () => (await resultText()) === '{\n  "a": [\n    1,\n    2\n  ]\n}'),
    )

    task = await home()
    await task.find('color', 'color')
    await task.type('#1a56b8')
    await task.answered('the colour', () => view.locator('#answer .swatch').first().isVisible())
    await task.click('details.options summary')
    await task.paste('.field-contrastWith input, .field-contrastWith textarea', 'white')
    done("a colour's contrast with white", task, 6, await task.answered('the verdicts', () => view.locator('#answer .verdict-badge').first().isVisible()))

    const shared = `${origin}/tools/base64#input=aGVsbG8gd29ybGQ&action=decode`
    task = new Task(view)
    await task.open(shared)
    done('open a shared link', task, 1, await task.answered('the shared answer', async () => (await resultText()) === 'hello world'))

    task = await home()
    await task.find('epoch', 'timestamp')
    done(
      'find epoch from the home page',
      task,
      2,
      await task.answered('the timestamp tool', async () => ((await view.locator('#answer-status').textContent()) ?? '').startsWith('Answered')),
    )

    for (const line of report) t.diagnostic(line)
    await sized.close()
  })

  test("axe finds no serious or critical violation on the home page (also while searching), the pipeline and operation pages with their answers' views, light and dark, at a desktop's and a phone's width", async () => {
    const audited: string[] = []
    for (const scheme of ['light', 'dark'] as const) {
      const themed = await newContext(scheme)
      const auditPage = await themed.newPage()
      for (const [path, example] of [
        ['/', undefined],
        ['/#q=base', undefined],
        ['/tools/base64', 0],
        ['/tools/qr-code', 0],
        ['/tools/diff', 0],
        ['/tools/jwt', 0],
        ['/tools/cron', 0],
        ['/tools/color', COLOR_CONTRAST_EXAMPLE],
        ['/tools/regex', 0],
        ['/tools/detect', 0],
        ['/tools/uuid', UUID_LIST_EXAMPLE],
        ['/pipeline', undefined],
      ] as const) {
        await auditPage.goto(`${origin}${path}`)
        if (example !== undefined) await showExample(auditPage, example)
        await audit(auditPage, `${scheme} ${path}`)
      }
      await themed.close()
    }
    // At a phone's width: the search, a match highlighted, and operations' pages, the answer under the main field.
    for (const scheme of ['light', 'dark'] as const) {
      const phone = await newContext(scheme, { width: 390, height: 844 })
      const phonePage = await phone.newPage()
      await phonePage.goto(`${origin}/#q=base`)
      await untilText(phonePage, 'search-count', 'Enter opens', 'includes')
      await audit(phonePage, `${scheme} phone /#q=base`)
      for (const [path, example] of [
        ['/tools/base64', 0],
        ['/tools/jwt', 0],
        ['/tools/diff', 0],
      ] as const) {
        await phonePage.goto(`${origin}${path}`)
        await showExample(phonePage, example)
        await audit(phonePage, `${scheme} phone ${path}`)
      }
      await phone.close()
    }
    // The home page with recent tools, at a phone's width.
    const phone = await newContext('light', { width: 390, height: 844 })
    const phonePage = await phone.newPage()
    await phonePage.goto(`${origin}/tools/base64#input=hi`)
    await settled(phonePage)
    await phonePage.goto(origin)
    await phonePage.locator('#recent li').first().waitFor()
    await audit(phonePage, 'phone /, recent tools')
    // An operation's form at a phone's width, its options open.
    await phonePage.goto(`${origin}/tools/otp`)
    await phonePage.locator('details.options summary').click()
    await audit(phonePage, 'phone /tools/otp')
    await phone.close()
    // Each theme chosen in the header against the system's other one.
    for (const [system, chosen] of [
      ['light', 'dark'],
      ['dark', 'light'],
    ] as const) {
      const toggled = await newContext(system)
      const togglePage = await toggled.newPage()
      await togglePage.goto(`${origin}/tools/base64#input=hi`)
      await settled(togglePage)
      await togglePage.locator('#theme').selectOption(chosen)
      await togglePage.locator('#favourite').click()
      await audit(togglePage, `${chosen} chosen on ${system} /tools/base64`)
      // The home page with its favourites and recent tools.
      await togglePage.goto(origin)
      await togglePage.locator('#recent li').first().waitFor()
      await audit(togglePage, `${chosen} chosen on ${system} /`)
      await toggled.close()
    }
    assert.equal(audited.length, 38)

    /** Runs an example and opens all there is to see of its answer: the JSON, and a diff side by side. */
    async function showExample(auditPage: Page, example: number) {
      await auditPage.locator(`button[data-example="${example}"]`).click()
      await settled(auditPage)
      await auditPage.locator('details.raw summary').first().click()
      const sideBySide = auditPage.getByRole('button', { name: 'Side by side', exact: true })
      if ((await sideBySide.count()) > 0) await sideBySide.click()
    }

    async function audit(auditPage: Page, label: string) {
      await auditPage.locator('h1').waitFor()
      // Run through the DevTools protocol, which the page's CSP does not govern.
      await auditPage.evaluate(AXE_SOURCE)
      const violations = await auditPage.evaluate(
        `axe.run().then(({ violations }) => violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => violation.id + ': ' + violation.nodes.map((node) => node.target.join(' ')).join(', ')))`,
      )
      assert.deepEqual(violations, [], label)
      audited.push(label)
    }
  })

  test('screenshots of the home page and an operation, light and dark, and a phone', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const themed = await newContext(scheme, { width: 1200, height: 800 })
      const shot = await themed.newPage()
      await shot.goto(origin)
      await shot.locator('.cards li').first().waitFor()
      await shot.screenshot({ path: join(SCREENSHOTS, `home-${scheme}.png`) })
      await shot.goto(`${origin}/tools/json#${new URLSearchParams({ input: '{"name":"devutils","tags":["api","mcp","cli"],"port":3000}', sortKeys: 'true' })}`)
      assert.match(await settled(shot), /Answered/)
      await shot.screenshot({ path: join(SCREENSHOTS, `operation-${scheme}.png`) })
      await themed.close()
    }
    const phone = await newContext('light', { width: 390, height: 844 })
    const small = await phone.newPage()
    await small.goto(`${origin}/tools/qr-code#input=https%3A%2F%2Fexample.com%2F`)
    await settled(small)
    assert.ok(await small.locator('#answer-image').isVisible())
    const overflow = await small.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')
    assert.equal(overflow, 0, 'the page fits a phone without scrolling sideways')
    await small.screenshot({ path: join(SCREENSHOTS, 'phone-light.png'), fullPage: false })
    await phone.close()
  })

  // Apart from the flows above, so that its diagnostics show even when a blocked script broke a flow.
  test('the pages requested nothing outside the service, broke no CSP rule and threw nothing', () => {
    assert.deepEqual(offOrigin, [], 'the web app requested something outside the service')
    assert.deepEqual(cspReports, [], 'the web app broke the Content-Security-Policy')
    assert.deepEqual(pageErrors, [], 'the web app threw')
    assert.deepEqual(failedAssets, [], 'the service refused a file of the web app')
  })
})

describe('the web app as served', () => {
  let app: FastifyInstance
  before(async () => {
    app = await buildTestApp()
  })
  after(() => app.close())

  test('pages: index.html, no-cache, a strict CSP without inline scripts or styles, nor eval but of WebAssembly', async () => {
    for (const url of ['/', '/tools/base64', '/pipeline', '/tools/base64/']) {
      const response = await request(app, { method: 'GET', url })
      assert.equal(response.statusCode, 200, url)
      assert.match(String(response.headers['content-type']), /^text\/html/)
      assert.equal(response.headers['cache-control'], 'no-cache')
      const csp = String(response.headers['content-security-policy'])
      assert.match(csp, /default-src 'self'/)
      assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'(;|$)/)
      assert.match(csp, /style-src 'self'(;|$)/)
      assert.doesNotMatch(csp, /unsafe-inline|'unsafe-eval'/)
      assert.equal(response.headers['x-content-type-options'], 'nosniff')
      assert.equal(response.headers['x-frame-options'], 'SAMEORIGIN')
      assert.doesNotMatch(response.body, /<script>|<style>| style=/)
    }
    assert.equal((await request(app, { method: 'GET', url: '/tools/nope' })).statusCode, 404)
    assert.equal((await request(app, { method: 'GET', url: '/tools/pipeline' })).statusCode, 404)
  })

  test('plain words: no title, field label or choice label in the catalogue is an API name in camelCase or a kebab-case slug', async () => {
    const index = (await request(app, { method: 'GET', url: '/' })).body
    const address = /<meta name="devutils-catalogue" content="([^"]+)">/.exec(index)?.[1] ?? ''
    const catalogue = JSON.parse((await request(app, { method: 'GET', url: address })).body) as WebCatalogue
    const apiShaped = (text: string) => /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/.test(text) || /^[a-z]+(?:-[a-z]+)+$/.test(text)
    assert.ok(apiShaped('timestampToDate') && apiShaped('yaml-json') && !apiShaped('sha3-256') && !apiShaped('EdDSA'))
    const choicesOf = (schema: FieldSchema): unknown[] => [
      ...(schema.enum ?? []),
      ...(schema.const === undefined ? [] : [schema.const]),
      ...(schema.anyOf ?? []).flatMap(choicesOf),
    ]
    const shown = catalogue.operations.flatMap((operation) => [
      operation.title,
      ...operation.fields.flatMap((field) => [field.label, ...choicesOf(field.schema).map((value) => field.choiceLabels?.[String(value)] ?? String(value))]),
    ])
    assert.ok(shown.length > 500, `${shown.length} words shown`)
    assert.deepEqual(shown.filter(apiShaped), [])
    // The rule, and an operation's own words where the rule reads wrong.
    const byName = new Map(catalogue.operations.map((operation) => [operation.name, operation]))
    for (const [operation, field, value, label] of [
      ['timestamp', 'action', 'timestampToDate', 'Timestamp to date'],
      ['yaml-json', 'action', 'yamlToJson', 'YAML → JSON'],
      ['lines', 'action', 'symmetricDifference', 'symmetric difference'],
      ['markdown', 'action', 'toHtml', 'Markdown → HTML'],
      ['base64', 'inputEncoding', undefined, 'Input encoding'],
      ['cipher', 'memoryKiB', undefined, 'Memory (KiB)'],
    ] as const) {
      const described = byName.get(operation)!.fields.find((candidate) => candidate.name === field)!
      assert.equal(value === undefined ? described.label : described.choiceLabels?.[value], label, `${operation} ${field} ${value ?? ''}`)
    }
  })

  test('the manifest: linked from every page, valid JSON with what an install needs, its icon served', async () => {
    const index = (await request(app, { method: 'GET', url: '/' })).body
    assert.match(index, /<link rel="manifest" href="\/manifest\.webmanifest">/)
    const csp = String((await request(app, { method: 'GET', url: '/' })).headers['content-security-policy'])
    assert.match(csp, /manifest-src 'self'/)
    assert.match(csp, /worker-src 'self'/)
    const response = await request(app, { method: 'GET', url: '/manifest.webmanifest' })
    assert.equal(response.statusCode, 200)
    assert.match(String(response.headers['content-type']), /^application\/manifest\+json/)
    assert.equal(response.headers['cache-control'], 'no-cache')
    const manifest = JSON.parse(response.body) as Record<string, unknown>
    assert.equal(manifest.name, 'devutils')
    assert.equal(manifest.start_url, '/')
    assert.equal(manifest.display, 'standalone')
    assert.match(String(manifest.theme_color), /^#[0-9a-f]{6}$/)
    assert.match(String(manifest.background_color), /^#[0-9a-f]{6}$/)
    const icons = manifest.icons as Array<{ src: string; sizes: string; type: string }>
    assert.equal(icons.length, 1)
    assert.equal(icons[0].type, 'image/svg+xml')
    assert.equal(icons[0].sizes, 'any')
    assert.ok(index.includes(`href="${icons[0].src}"`), 'the same icon as the pages')
    const icon = await request(app, { method: 'GET', url: icons[0].src })
    assert.equal(icon.statusCode, 200)
    assert.match(icon.body, /^<svg/)
  })

  test("the service worker: at the root, revalidated at every load, keeping this build's files", async () => {
    const response = await request(app, { method: 'GET', url: '/sw.js' })
    assert.equal(response.statusCode, 200)
    assert.match(String(response.headers['content-type']), /^text\/javascript/)
    assert.equal(response.headers['cache-control'], 'no-cache')
    // Its own requests are governed by the policy it is served with.
    assert.match(String(response.headers['content-security-policy']), /connect-src 'self'/)
    const index = (await request(app, { method: 'GET', url: '/' })).body
    for (const [, asset] of index.matchAll(/(?:href|src|content)="(\/assets\/[^"]+)"/g)) assert.ok(response.body.includes(`"${asset}"`), `${asset} is kept`)
    assert.match(response.body, /"devutils-[\w-]{10}"/)
    for (const url of ['/assets/sw.js', '/assets/manifest.webmanifest']) assert.equal((await request(app, { method: 'GET', url })).statusCode, 404, url)
  })

  test('assets: hashed names cached for a year, gzip when asked, and the whole app within a few hundred KB', async () => {
    const index = (await request(app, { method: 'GET', url: '/' })).body
    const assets = [...index.matchAll(/(?:href|src|content)="(\/assets\/[^"]+)"/g)].map((match) => match[1])
    assert.equal(assets.length, 5, assets.join(', '))
    let transferred = Buffer.byteLength(index)
    for (const url of assets) {
      assert.match(url, /-[\w-]{8,}\.(js|css|json|svg)$/)
      const response = await request(app, { method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } })
      assert.equal(response.statusCode, 200, url)
      assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable')
      // A worker keeps the policy its script is answered with: the page's worker, the page's.
      if (url.includes('/page-worker-')) assert.match(String(response.headers['content-security-policy']), /script-src 'self' 'wasm-unsafe-eval'/)
      if (!url.endsWith('.svg')) {
        assert.equal(response.headers['content-encoding'], 'gzip', url)
        gunzipSync(response.rawPayload)
      }
      // The worker is loaded with the first operation run in the page, not with the page.
      if (url.includes('/page-worker-')) assert.ok(response.rawPayload.length < 40_000, `the worker transfers ${response.rawPayload.length} bytes`)
      else transferred += response.rawPayload.length
    }
    assert.ok(transferred < 150_000, `the app transfers ${transferred} bytes`)
    assert.equal((await request(app, { method: 'GET', url: '/assets/index.html' })).statusCode, 404)
    assert.equal((await request(app, { method: 'GET', url: '/assets/nope.js' })).statusCode, 404)
  })

  test("the page holds the service's own body limit, as its configuration sets it, plain and compressed", async () => {
    const limited = await buildTestApp({ bodyLimit: 2_500_000 })
    try {
      const plain = (await request(limited, { method: 'GET', url: '/tools/hash' })).body
      const compressed = await request(limited, { method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } })
      assert.equal(compressed.headers['content-encoding'], 'gzip')
      for (const page of [plain, gunzipSync(compressed.rawPayload).toString('utf8')]) {
        assert.match(page, /<meta name="devutils-body-limit" content="2500000">/)
        assert.doesNotMatch(page, /%[A-Z_]+%/)
      }
    } finally {
      await limited.close()
    }
    assert.match((await request(app, { method: 'GET', url: '/' })).body, /<meta name="devutils-body-limit" content="1048576">/)
  })
})
