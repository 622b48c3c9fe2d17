/** Log lines wait in memory until this many characters have gathered, or FLUSH_INTERVAL_MS has passed. */
const LOG_BUFFER_CHARACTERS = 16 * 1024
const FLUSH_INTERVAL_MS = 1000

/** Where the buffered lines are finally written: standard output, unless a test brings its own. */
export interface LogOutputTarget {
  write(text: string): unknown
}

/**
 * Standard output for the log, written LOG_BUFFER_CHARACTERS at a time: lines are kept as a list
 * and joined once per write.
 * Ours rather than pino.destination, which measures the UTF-8 length of its pending text on every line (docs/PERFORMANCE.md, "Duties").
 *
 * A line reaches the log within a second. Node writes standard output synchronously to files and
 * pipes on Linux, so what is buffered is written when the process exits, even after an uncaught
 * exception; only a process killed outright (SIGKILL, out of memory) can lose its last second of lines.
 */
export function bufferedStandardOutput(target: LogOutputTarget = process.stdout) {
  let lines: string[] = []
  let characters = 0
  let closed = false
  const writeBuffered = () => {
    if (lines.length === 0) return
    const text = lines.join('')
    lines = []
    characters = 0
    target.write(text)
  }
  const flusher = setInterval(writeBuffered, FLUSH_INTERVAL_MS).unref()
  process.on('exit', writeBuffered)
  return {
    /** What pino writes each line to. */
    destination: {
      write(line: string) {
        lines.push(line)
        characters += line.length
        if (closed || characters >= LOG_BUFFER_CHARACTERS) writeBuffered()
      },
    },
    /** Writes what is buffered now (the "Server listening" line, for whoever waits for it). */
    flush: writeBuffered,
    /** Writes what is buffered and stops buffering: lines logged later are written at once. */
    close() {
      closed = true
      clearInterval(flusher)
      process.off('exit', writeBuffered)
      writeBuffered()
    },
  }
}
