import { after, before } from 'node:test'
import { type OffloadPolicy, setOffloadPolicy } from '../src/core/execute.ts'

/**
 * Runs the calls of the enclosing suite in process, never on a worker thread, and puts the policy
 * back after it: test files may share one process, where a policy left set would move another
 * file's calls (an untrusted program meant to be stopped on its thread would run on the test's own).
 */
export function runCallsInProcess(): void {
  let previous: OffloadPolicy
  before(() => {
    previous = setOffloadPolicy('never')
  })
  after(() => {
    setOffloadPolicy(previous)
  })
}
