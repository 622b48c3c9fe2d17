import { monitorEventLoopDelay } from 'node:perf_hooks'

/** How finely the event loop's delay is sampled, in milliseconds; a delay this small counts as none. */
const RESOLUTION_MS = 10

/** Whether the event loop lags past a limit, measured over the last sampling interval. */
export interface EventLoopLag {
  exceeded(): boolean
  stop(): void
}

/**
 * The event loop's mean delay over each interval of `sampleIntervalMs`, compared with
 * `maxDelayMs` (0 turns the check off). The check a request pays for is one comparison; the
 * measuring is Node's own histogram, read once per interval. An interval with no sample at all
 * (the loop was blocked throughout) counts as exceeded.
 */
export function watchEventLoopLag(maxDelayMs: number, sampleIntervalMs: number): EventLoopLag {
  if (maxDelayMs <= 0) return { exceeded: () => false, stop: () => {} }
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
  histogram.enable()
  let lagMs = 0
  const sampler = setInterval(() => {
    const meanMs = histogram.mean / 1e6
    lagMs = Number.isNaN(meanMs) ? Number.POSITIVE_INFINITY : Math.max(0, meanMs - RESOLUTION_MS)
    histogram.reset()
  }, sampleIntervalMs).unref()
  return {
    exceeded: () => lagMs > maxDelayMs,
    stop() {
      clearInterval(sampler)
      histogram.disable()
    },
  }
}
