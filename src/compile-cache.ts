import { enableCompileCache } from 'node:module'
import { fileURLToPath } from 'node:url'

/**
 * Turns on Node's compile cache in `.compile-cache/` beside the bundle: V8's compiled code of the
 * modules loaded after this call, kept between starts, so that a start compiles only what a new
 * build changed. The build fills it (scripts/build.ts); where the folder cannot be written (a
 * read-only image), what is there is read and nothing is added. Call it before importing what it
 * should cover: ES modules are compiled as they are linked, before any of them runs.
 */
export function enableCompileCacheBesideBundle(): void {
  enableCompileCache(fileURLToPath(new URL(`./${COMPILE_CACHE_FOLDER}/`, import.meta.url)))
}

/** The folder in dist/ that holds the cache (never packed: scripts/build.ts writes its .npmignore). */
export const COMPILE_CACHE_FOLDER = '.compile-cache'
