/**
 * `node:timers/promises` in the page: `setImmediate` as a promise settled once the tasks already
 * queued have run, through a message channel, since browsers slow down a chain of zero-delay
 * timers once it nests a few deep.
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
