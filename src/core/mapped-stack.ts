import { readFileSync } from 'node:fs'
import { SourceMap, type SourceMapPayload } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * Stack frames of the build mapped back to the TypeScript sources, when a defect is logged rather
 * than when a module is loaded: Node's `--enable-source-maps` reads the map of every module as it
 * loads, which would cost every start of the server for the rare stack a defect prints. A frame
 * whose file has no map beside it (the sources run through a loader, Node's own modules) is kept
 * as it is.
 */
export function mappedStack(stack: string): string {
  return stack.replace(FRAME_PLACE, (place: string, file: string, line: string, column: string) => {
    const url = file.startsWith('file:') ? file : pathToFileURL(file).href
    const origin = sourceMapOf(url)?.findOrigin(Number(line), Number(column))
    if (origin === undefined || !('fileName' in origin)) return place
    return `${pathOf(new URL(origin.fileName, url).href)}:${origin.lineNumber}:${origin.columnNumber}`
  })
}

/** A place in a frame of the build, by URL or by path: `file:///…/dist/chunk-X.js:1:2345`. */
const FRAME_PLACE = /((?:file:\/\/)?\/[^\s()]+?\.js):(\d+):(\d+)/g

/** The maps read so far, by the URL of their file: few, since a defect's stack passes through few files. */
const maps = new Map<string, SourceMap | null>()
const MAPS_KEPT = 8

function sourceMapOf(url: string): SourceMap | null {
  if (maps.has(url)) return maps.get(url) ?? null
  if (maps.size >= MAPS_KEPT) maps.delete(maps.keys().next().value as string)
  const map = readSourceMap(url)
  maps.set(url, map)
  return map
}

function readSourceMap(url: string): SourceMap | null {
  try {
    return new SourceMap(JSON.parse(readFileSync(fileURLToPath(`${url}.map`), 'utf8')) as SourceMapPayload)
  } catch {
    return null
  }
}

const pathOf = (url: string) => (url.startsWith('file:') ? fileURLToPath(url) : url)
