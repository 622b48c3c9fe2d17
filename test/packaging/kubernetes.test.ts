import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { Deployment } from 'kubernetes-models/apps/v1'
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2'
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1'
import { ConfigMap, Service } from 'kubernetes-models/v1'
import { parse, parseAllDocuments } from 'yaml'
import { CONFIG_VARIABLES, DEFAULT_CONFIG, loadConfig } from '../../src/core/config.ts'
import { buildTestApp, request } from '../helpers.ts'
import { quantityBytes } from '../manifests.ts'
import { ROOT } from '../processes.ts'

const DIR = join(ROOT, 'deploy/kubernetes')

/** The API kinds the manifests use, each with its model from kubernetes-models, which validates against the API's schema. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
}

// biome-ignore lint/suspicious/noExplicitAny: manifests are read as plain YAML data, checked field by field below.
type Manifest = any

function loadManifests(): Array<{ file: string; manifest: Manifest }> {
  const kustomization = parse(readFileSync(join(DIR, 'kustomization.yaml'), 'utf8'))
  return (kustomization.resources as string[]).flatMap((file) =>
    parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((document) => {
      assert.equal(document.errors.length, 0, `${file} parses: ${document.errors.join('; ')}`)
      return { file, manifest: document.toJS() }
    }),
  )
}

const find = (manifests: Array<{ manifest: Manifest }>, kind: string, name: string): Manifest => {
  const found = manifests.find(({ manifest }) => manifest.kind === kind && manifest.metadata.name === name)?.manifest
  assert.ok(found, `a ${kind} named ${name}`)
  return found
}

describe('the Kubernetes manifests', () => {
  const manifests = loadManifests()
  const deployment = find(manifests, 'Deployment', 'devutils')
  const pod = deployment.spec.template
  const container = pod.spec.containers.find((c: Manifest) => c.name === 'devutils')
  const configMap = find(manifests, 'ConfigMap', 'devutils')
  const config = loadConfig(configMap.data)

  test('the kustomization lists every manifest in the folder, and each is a valid Kubernetes object', () => {
    const files = readdirSync(DIR).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
    const kustomization = parse(readFileSync(join(DIR, 'kustomization.yaml'), 'utf8'))
    assert.deepEqual([...kustomization.resources].sort(), files.sort())
    assert.deepEqual(kustomization.images, [{ name: 'devutils', newTag: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version }])
    for (const { file, manifest } of manifests) {
      const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`]
      assert.ok(Model, `${file}: ${manifest.apiVersion} ${manifest.kind} is a kind these tests know`)
      assert.doesNotThrow(() => new Model(manifest as never).validate(), `${file}: ${manifest.kind} ${manifest.metadata?.name} validates`)
    }
    // The validation is real: a field of the wrong type is refused.
    const broken = structuredClone(deployment)
    broken.spec.replicas = '3'
    assert.throws(() => new Deployment(broken).validate(), /replicas must be integer/)
  })

  test('the ConfigMap holds only the service’s own variables, with values it accepts', () => {
    for (const name of Object.keys(configMap.data)) assert.ok((CONFIG_VARIABLES as readonly string[]).includes(name), `${name} is a configuration variable`)
    assert.equal(config.host, '0.0.0.0')
    assert.equal(config.workers, 1)
    assert.ok(config.trustProxy, 'TRUST_PROXY is set: the pods are behind a proxy')
    const redisService = find(manifests, 'Service', 'devutils-redis')
    assert.equal(config.redisUrl, `redis://${redisService.metadata.name}:${redisService.spec.ports[0].port}`, 'REDIS_URL names the Redis Service')
    assert.deepEqual(container.envFrom, [{ configMapRef: { name: 'devutils' } }])
  })

  test('the Deployment: 3 replicas, the service’s real port and probes, a surge-only rolling update, a grace period longer than a request can take', async () => {
    assert.equal(deployment.spec.replicas, 3)
    assert.deepEqual(deployment.spec.selector.matchLabels, { 'app.kubernetes.io/name': 'devutils' })
    for (const [key, value] of Object.entries(deployment.spec.selector.matchLabels)) assert.equal(pod.metadata.labels[key], value)
    const port = container.ports.find((p: Manifest) => p.name === 'http')
    assert.equal(port.containerPort, config.port)
    assert.equal(container.startupProbe.httpGet.path, '/health')
    assert.equal(container.livenessProbe.httpGet.path, '/health')
    assert.equal(container.readinessProbe.httpGet.path, '/ready')
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) assert.equal(probe.httpGet.port, 'http')
    // The probed paths answer 200 on the real app.
    const app = await buildTestApp()
    try {
      for (const path of ['/health', '/ready']) assert.equal((await request(app, { method: 'GET', url: path })).statusCode, 200, path)
    } finally {
      await app.close()
    }
    assert.deepEqual(deployment.spec.strategy.rollingUpdate, { maxSurge: 1, maxUnavailable: 0 })
    const preStopSeconds = Number(container.lifecycle.preStop.exec.command[1])
    assert.ok(preStopSeconds > 0, 'a preStop pause while the endpoints are removed')
    const drainMs = config.requestTimeoutMs + config.timeBudgetMs
    assert.ok(
      pod.spec.terminationGracePeriodSeconds * 1000 > preStopSeconds * 1000 + drainMs,
      `the grace period ${pod.spec.terminationGracePeriodSeconds} s is longer than the preStop pause plus REQUEST_TIMEOUT_MS + TIME_BUDGET_MS`,
    )
  })

  test('the pod runs as non-root on a read-only filesystem with no privileges, and its resources are declared', () => {
    assert.equal(pod.spec.securityContext.runAsNonRoot, true)
    const dockerUser = /^USER (\d+):(\d+)$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))
    assert.equal(String(pod.spec.securityContext.runAsUser), dockerUser?.[1], 'the uid of the Dockerfile’s USER')
    assert.deepEqual(container.securityContext, {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      privileged: false,
      capabilities: { drop: ['ALL'] },
    })
    assert.ok(pod.spec.containers.every((c: Manifest) => c.securityContext?.readOnlyRootFilesystem === true))
    assert.deepEqual(
      container.volumeMounts.map((m: Manifest) => m.mountPath),
      ['/tmp'],
    )
    const { requests, limits } = container.resources
    assert.ok(requests.cpu && requests.memory && limits.memory, 'CPU and memory requests, and a memory limit')
    // The measured footprint: about 100 MB idle, under 512 MiB through any flood (test/memory.test.ts).
    assert.ok(quantityBytes(requests.memory) >= 200e6, 'the request covers a loaded server')
    assert.ok(quantityBytes(limits.memory) >= 512 * 2 ** 20, 'the limit is above the bound the service holds itself to')
    assert.ok(quantityBytes(limits.memory) >= quantityBytes(requests.memory))
  })

  test('Service, HorizontalPodAutoscaler and PodDisruptionBudget point at the Deployment', () => {
    const service = find(manifests, 'Service', 'devutils')
    assert.deepEqual(service.spec.selector, deployment.spec.selector.matchLabels)
    assert.equal(service.spec.ports[0].targetPort, 'http')
    const hpa = find(manifests, 'HorizontalPodAutoscaler', 'devutils')
    assert.deepEqual(hpa.spec.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'devutils' })
    assert.ok(hpa.spec.minReplicas >= deployment.spec.replicas)
    assert.equal(hpa.spec.metrics[0].resource.name, 'cpu')
    const pdb = find(manifests, 'PodDisruptionBudget', 'devutils')
    assert.deepEqual(pdb.spec.selector.matchLabels, deployment.spec.selector.matchLabels)
    const redis = find(manifests, 'Deployment', 'devutils-redis')
    assert.equal(redis.spec.template.spec.securityContext.runAsNonRoot, true)
  })
})

describe('compose.yaml', () => {
  const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8'))

  test('3 replicas of the service behind HAProxy, sharing one Redis, on one port', () => {
    const service = compose.services.devutils
    assert.equal(service.deploy.replicas, 3)
    assert.equal(service.build, '.')
    assert.equal(service.ports, undefined, 'the replicas are reached only through the balancer')
    assert.equal(service.read_only, true)
    const config = loadConfig(service.environment)
    assert.equal(config.redisUrl, 'redis://redis:6379')
    assert.ok(compose.services.redis)
    assert.equal(config.trustProxy, '1', 'one hop: HAProxy')
    assert.ok(Number.parseInt(service.stop_grace_period, 10) * 1000 > DEFAULT_CONFIG.requestTimeoutMs + DEFAULT_CONFIG.timeBudgetMs)
    const balancer = compose.services.balancer
    assert.deepEqual(balancer.ports, ['3000:8080'])
    assert.ok(balancer.volumes.some((volume: string) => volume.startsWith('./deploy/haproxy/haproxy.cfg:')))
    const haproxy = readFileSync(join(ROOT, 'deploy/haproxy/haproxy.cfg'), 'utf8')
    assert.match(haproxy, /^ {2}bind :8080$/m)
    assert.match(haproxy, /^ {2}option httpchk GET \/ready$/m)
    assert.match(haproxy, /^ {2}option forwardfor$/m)
    assert.match(haproxy, new RegExp(`server-template devutils- ${service.deploy.replicas} devutils:${DEFAULT_CONFIG.port} `))
  })
})
