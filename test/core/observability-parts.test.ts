import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { bufferedStandardOutput } from '../../src/http/log-output.ts'
import { RequestMetrics } from '../../src/http/request-metrics.ts'

describe('the buffered log output', () => {
  test('writes lines in order, a few kilobytes at a time, at once when flushed, and each line at once once closed', () => {
    const writes: string[] = []
    const output = bufferedStandardOutput({ write: (text: string) => writes.push(text) })
    const line = `${JSON.stringify({ msg: 'x'.repeat(200) })}\n`
    output.destination.write(line)
    assert.deepEqual(writes, [], 'one line waits')
    for (let i = 0; i < 100; i++) output.destination.write(line)
    assert.ok(writes.length >= 1 && writes.length < 10, `${writes.length} writes for 101 lines`)
    output.flush()
    assert.equal(writes.join(''), line.repeat(101), 'every line, in order, nothing lost or doubled')
    output.close()
    output.destination.write('after\n')
    assert.equal(writes.at(-1), 'after\n')
  })
})

describe('the request metrics', () => {
  test('count per operation, method and status, and a cumulative latency histogram per operation and status', () => {
    const metrics = new RequestMetrics()
    metrics.record('base64', 'POST', 200, 0.0004)
    metrics.record('base64', 'GET', 200, 0.003)
    metrics.record('base64', 'POST', 422, 20)
    const text = metrics.exposition()
    assert.match(text, /^devutils_http_requests_total\{operation="base64",method="POST",status="200"\} 1$/m)
    assert.match(text, /^devutils_http_requests_total\{operation="base64",method="GET",status="200"\} 1$/m)
    assert.match(text, /^devutils_http_request_duration_seconds_bucket\{le="0.0005",operation="base64",status="200"\} 1$/m)
    assert.match(text, /^devutils_http_request_duration_seconds_bucket\{le="0.0025",operation="base64",status="200"\} 1$/m)
    assert.match(text, /^devutils_http_request_duration_seconds_bucket\{le="0.005",operation="base64",status="200"\} 2$/m)
    assert.match(text, /^devutils_http_request_duration_seconds_bucket\{le="\+Inf",operation="base64",status="200"\} 2$/m)
    assert.match(text, /^devutils_http_request_duration_seconds_count\{operation="base64",status="200"\} 2$/m)
    assert.match(text, /^devutils_http_request_duration_seconds_sum\{operation="base64",status="200"\} 0.0034(0*\d*)?$/m, 'the sum of the two, as a float')
    assert.match(text, /^devutils_http_request_duration_seconds_bucket\{le="10",operation="base64",status="422"\} 0$/m, 'past the largest bound')
    assert.match(text, /^devutils_http_request_duration_seconds_bucket\{le="\+Inf",operation="base64",status="422"\} 1$/m)
    assert.match(text, /^# TYPE devutils_http_request_duration_seconds histogram$/m)
  })

  test('escape a label value as the text format requires', () => {
    const metrics = new RequestMetrics()
    metrics.record('a"b\\c\nd', 'GET', 404, 0.001)
    assert.match(metrics.exposition(), /operation="a\\"b\\\\c\\nd"/)
  })
})
