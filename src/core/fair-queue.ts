/**
 * Who waits for a worker thread, and who goes next: the client that has had the least of the
 * threads' time lately, then the one that came first. A client that keeps catastrophic patterns in
 * flight has used its share, so a call from anyone else is the next to run whatever number of
 * such clients there are; a client whose work is cheap hardly counts at all.
 */
export class FairQueue<T> {
  readonly #capacity: number
  readonly #halfLifeMs: number
  readonly #waiting: Array<Waiting<T>> = []
  readonly #used = new Map<string, Usage>()
  #arrivals = 0

  /** `capacity`: how many may wait at once; `halfLifeMs`: how fast a client's use of the threads is forgotten. */
  constructor(capacity: number, halfLifeMs: number) {
    this.#capacity = capacity
    this.#halfLifeMs = halfLifeMs
  }

  get size(): number {
    return this.#waiting.length
  }

  /**
   * Puts `item` in line for `client`. When the line is full, the waiting item of the client that has
   * used the threads most gives up its place, if that client has used more than this one: it is
   * answered as `shed`, and so is `item` when nobody has used more than its client.
   */
  enqueue(client: string, item: T): { shed?: T; admitted: boolean } {
    this.charge(client, CALL_COST_MS)
    const entry = { client, item, arrival: this.#arrivals++ }
    if (this.#waiting.length < this.#capacity) {
      this.#waiting.push(entry)
      return { admitted: true }
    }
    const usedAt = this.#usedAt(performance.now())
    const heaviest = this.#waiting.reduce((heaviest, entry) => (usedAt(entry.client) > usedAt(heaviest.client) ? entry : heaviest))
    if (usedAt(heaviest.client) <= usedAt(client)) return { admitted: false, shed: item }
    this.#waiting.splice(this.#waiting.indexOf(heaviest), 1, entry)
    return { admitted: true, shed: heaviest.item }
  }

  /** The next item to run, out of the line: its client's use is the least, or it came first among equals. */
  dequeue(): T | undefined {
    if (this.#waiting.length === 0) return undefined
    const usedAt = this.#usedAt(performance.now())
    let next = this.#waiting[0]
    let nextUse = usedAt(next.client)
    for (const entry of this.#waiting) {
      const use = usedAt(entry.client)
      if (use < nextUse || (use === nextUse && entry.arrival < next.arrival)) [next, nextUse] = [entry, use]
    }
    this.#waiting.splice(this.#waiting.indexOf(next), 1)
    return next.item
  }

  /** Takes `item` out of the line (its time ran out while it waited); false if it was not there. */
  remove(item: T): boolean {
    const index = this.#waiting.findIndex((entry) => entry.item === item)
    if (index >= 0) this.#waiting.splice(index, 1)
    return index >= 0
  }

  /** Counts `ms` of a thread's time against `client`. */
  charge(client: string, ms: number): void {
    const now = performance.now()
    this.#used.set(client, { ms: this.#decayed(this.#used.get(client), now) + ms, at: now })
    if (this.#used.size > MAX_CLIENTS_REMEMBERED) this.#forgetTheLightest(now)
  }

  /** The client's use of the threads, in milliseconds, with older use counting for less. */
  usedBy(client: string): number {
    return this.#decayed(this.#used.get(client), performance.now())
  }

  /** Each client's use as of one moment, so that clients are compared alike. */
  #usedAt(now: number): (client: string) => number {
    return (client) => this.#decayed(this.#used.get(client), now)
  }

  #decayed(usage: Usage | undefined, now: number): number {
    return usage === undefined ? 0 : usage.ms * 2 ** (-(now - usage.at) / this.#halfLifeMs)
  }

  /** Keeps the memory of clients bounded: those whose use has faded below a millisecond go first. */
  #forgetTheLightest(now: number): void {
    for (const [client, usage] of this.#used) if (this.#decayed(usage, now) < 1) this.#used.delete(client)
    while (this.#used.size > MAX_CLIENTS_REMEMBERED) this.#used.delete(this.#used.keys().next().value as string)
  }
}

interface Waiting<T> {
  client: string
  item: T
  arrival: number
}

interface Usage {
  ms: number
  at: number
}

/**
 * What each call counts for besides the thread time it takes: a client that keeps sending calls
 * that are shed, or stopped before they ran, has used its share all the same, and one that sends
 * a call now and then hardly counts.
 */
const CALL_COST_MS = 10

/** Clients whose use is remembered: beyond it, the faded ones are forgotten, then the oldest. */
const MAX_CLIENTS_REMEMBERED = 10_000
