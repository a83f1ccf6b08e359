// The bench's wrk runs, against a real wrk: every connection is accepted before the first request is sent (else the
// p99 is Node's accept ramp, see OPEN_MS), and the rate is over the time the server was loaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { OPEN_MS, wrk } from '../../bench/harness.js';

const CONNECTIONS = 20;

test('each connection is accepted before any request is sent, and the rate leaves out the wait', async () => {
  // When each connection that carried requests was accepted (wrk also opens one first to try the address).
  const connected = new Map<Socket, number>();
  const loaded = new Map<Socket, number>();
  const requested: number[] = [];
  const server = http.createServer((request, response) => {
    requested.push(performance.now());
    loaded.set(request.socket, connected.get(request.socket)!);
    response.end('{}');
  });
  server.on('connection', (socket: Socket) => connected.set(socket, performance.now()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const result = await wrk(port, { name: 'probe', method: 'GET', path: '/', headers: {} }, 1, CONNECTIONS);

    assert.equal(loaded.size, CONNECTIONS, 'one connection each, none opened again');
    assert.ok(
      Math.max(...loaded.values()) < Math.min(...requested),
      'the last connection was accepted before the first request arrived',
    );
    assert.ok(result.requests > 0 && result.requests <= requested.length, 'wrk counts the answers it received');
    assert.ok(requested.length - result.requests <= CONNECTIONS, 'at most one request per connection unanswered');
    // The rate's time is the span the server was loaded: from the first request to the last (not wrk's whole run).
    const span = (Math.max(...requested) - Math.min(...requested)) / 1000;
    assert.ok(Math.abs(result.seconds - span) < 0.03, `loaded for ${result.seconds} s, requests came for ${span} s`);
    assert.equal(result.requestsPerSecond, result.requests / result.seconds);
    assert.equal(result.quantiles.length, 1000);
    assert.ok(result.p50 > 0 && result.p50 <= result.p99, `p50 ${result.p50} ms, p99 ${result.p99} ms`);
    assert.ok(result.p99 < OPEN_MS, 'the wait before the first requests is not latency');
    assert.equal(result.failures, 0);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
