import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import net from 'node:net'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { buildImage, ensureNodeBase, IMAGE_NODE_VERSION, imageSize, podman, skipUnlessContainers } from '../containers.ts'
import { freePort, ROOT } from '../processes.ts'

// A tag of its own, so that two runs on one machine do not build over each other's image.
const IMAGE = `localhost/devutils:test-${process.pid}`
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string
/** The Node.js major version of the Dockerfile's default base image (node:<major>-…). */
const DOCKERFILE_NODE_MAJOR = /^ARG BASE=node:(\d+)-/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1]
const MB = 1e6
const skip = skipUnlessContainers()

describe('the container image', { skip, timeout: 600_000 }, () => {
  let base: string
  const name = `devutils-test-${process.pid}`
  let port: number
  let url: string

  before(async () => {
    const started = performance.now()
    base = await ensureNodeBase()
    const baseReady = performance.now()
    await buildImage(IMAGE, base)
    console.log(
      `# base image ready in ${((baseReady - started) / 1000).toFixed(0)} s, the Dockerfile built in ${((performance.now() - baseReady) / 1000).toFixed(0)} s`,
    )
    port = await freePort()
    url = `http://127.0.0.1:${port}`
    await podman(['run', '-d', '--rm=false', '--runtime', 'runc', '--read-only', '--name', name, '-p', `127.0.0.1:${port}:3000`, IMAGE])
    const deadline = Date.now() + 30_000
    for (;;) {
      const status = await fetch(`${url}/health`).then(
        (response) => response.status,
        () => 0,
      )
      if (status === 200) break
      if (Date.now() > deadline) throw new Error(`the container did not answer /health within 30 s:\n${await podman(['logs', name]).catch(String)}`)
      await sleep(200)
    }
  })

  after(async () => {
    await podman(['rm', '-f', '-t', '0', name]).catch(() => {})
    await podman(['rmi', '-f', IMAGE]).catch(() => {})
  })

  test("runs the Node.js of the Dockerfile's default base image: the stand-in base holds that major version, not the tests' own node", async () => {
    assert.ok(DOCKERFILE_NODE_MAJOR, 'the Dockerfile names an official node:<major> image as its default base')
    assert.equal(IMAGE_NODE_VERSION.split('.')[0], DOCKERFILE_NODE_MAJOR)
    assert.equal((await podman(['exec', name, 'node', '--version'])).trim(), `v${IMAGE_NODE_VERSION}`)
  })

  test('adds at most 80 MB to its base, carries OCI labels with the version, a health check, and a non-root user', async () => {
    const added = (await imageSize(IMAGE)) - (await imageSize(base))
    console.log(`# the image adds ${(added / MB).toFixed(1)} MB to its base`)
    assert.ok(added <= 80 * MB, `the image adds ${(added / MB).toFixed(1)} MB`)
    const [config] = JSON.parse(await podman(['image', 'inspect', IMAGE]))
    assert.equal(config.Labels['org.opencontainers.image.version'], VERSION)
    assert.equal(config.Labels['org.opencontainers.image.title'], 'devutils')
    assert.equal(config.Config.User, '10001:10001')
    assert.ok(config.Config.Env.includes('HOST=0.0.0.0'))
    assert.ok(Object.keys(config.Config.ExposedPorts ?? {}).includes('3000/tcp'))
    assert.deepEqual(config.Healthcheck?.Test?.slice(0, 2), ['CMD', 'node'], 'a HEALTHCHECK that needs only node')
  })

  test('runs with a read-only root filesystem as a non-root user, answers /health, an operation, and its own health check', async () => {
    const health = (await (await fetch(`${url}/health`)).json()) as { data: unknown }
    assert.deepEqual(health.data, { status: 'ok', version: VERSION })
    const pid = Number((await podman(['inspect', '--format', '{{.State.Pid}}', name])).trim())
    const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    assert.equal(uid, '10001', 'the server runs as uid 10001, not root')
    assert.equal((await podman(['inspect', '--format', '{{.HostConfig.ReadonlyRootfs}}', name])).trim(), 'true')
    const response = await fetch(`${url}/api/v1/base64`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"hi"}' })
    assert.equal(response.status, 200)
    assert.equal(((await response.json()) as { data: { result: string } }).data.result, 'aGk=')
    // The HEALTHCHECK's own command, run inside the container: it needs nothing but node.
    await podman(['healthcheck', 'run', name])
    // A heavy conversion starts the worker thread, which must not need a writable filesystem either.
    const yaml = Array.from({ length: 5000 }, (_, i) => `key${i}: ${i}`).join('\n')
    const heavy = await fetch(`${url}/api/v1/yaml-json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: yaml }),
    })
    assert.equal(heavy.status, 200)
    // jq, always on the worker thread, loads the build's copy of jq-web's files.
    const jq = await fetch(`${url}/api/v1/jq`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filter: '.a + 1', input: '{"a": 41}' }),
    })
    assert.equal(jq.status, 200)
    assert.deepEqual(((await jq.json()) as { data: { result: unknown[] } }).data.result, [42])
  })

  test('SIGTERM to the container answers the request in flight, then the container exits 0', async () => {
    const body = JSON.stringify({ input: 'in flight' })
    const socket = net.connect(port, '127.0.0.1')
    let received = ''
    socket.on('data', (chunk) => {
      received += chunk
    })
    socket.on('error', () => {})
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
    socket.write(
      `POST /api/v1/base64 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
    )
    await sleep(300)
    await podman(['kill', '--signal', 'TERM', name])
    await sleep(500)
    socket.write(body.slice(5))
    await closed
    assert.match(received, /^HTTP\/1\.1 200 /)
    assert.match(received, /"result":"aW4gZmxpZ2h0"/)
    const exitCode = (await podman(['wait', name], { timeoutMs: 30_000 })).trim()
    assert.equal(exitCode, '0')
    assert.match(await podman(['logs', name]), /shut down/)
  })
})
