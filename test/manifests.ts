import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { ROOT } from './processes.ts'

/** Bytes of a Kubernetes memory quantity such as 384Mi or 1G. */
export function quantityBytes(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(quantity)
  if (!match) throw new Error(`not a memory quantity: ${quantity}`)
  const units: Record<string, number> = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, K: 1e3, M: 1e6, G: 1e9 }
  return Number(match[1]) * (match[2] ? units[match[2]] : 1)
}

/** The memory limit the Kubernetes Deployment declares for the service's container, in bytes. */
export function declaredMemoryLimit(): number {
  const deployment = parse(readFileSync(join(ROOT, 'deploy/kubernetes/deployment.yaml'), 'utf8'))
  const container = deployment.spec.template.spec.containers.find((c: { name: string }) => c.name === 'devutils')
  return quantityBytes(container.resources.limits.memory)
}
