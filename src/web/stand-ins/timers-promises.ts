/**
 * `node:timers/promises` in the page: `setImmediate` as a promise settled once the tasks already
 * queued have run, through a message channel, since a chain of zero-delay timers is slowed to 4 ms
 * each after a few.
 */
export function setImmediate(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel()
    port1.addEventListener(
      'message',
      () => {
        port1.close()
        resolve()
      },
      { once: true },
    )
    port1.start()
    port2.postMessage(undefined)
  })
}
