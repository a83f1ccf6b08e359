// SIGTERM with requests in flight, for either backend: several POSTs still streaming large bodies when the signal comes
// all finish with their answers, new connections are refused, the database is closed, the process exits 0.
import assert from 'node:assert/strict';
import net from 'node:net';
import type { TestContext } from 'node:test';
import {
  authorize,
  eventually,
  request,
  startService,
  tempDataDir,
  waitForLog,
  type Service,
} from './process-helper.js';

const IN_FLIGHT = 5;
/** Valid JSON padded with spaces to about 12 KiB (under the 16 KiB limit), so it takes a while to arrive. */
const body = (i: number): Buffer => Buffer.from(`{"name": "Streamed ${i}",${' '.repeat(12 * 1024)}"location": "Oslo"}`);

interface Streaming {
  socket: net.Socket;
  answer: () => string;
  rest: Buffer;
}

/** Sends a POST's headers and the first part of its body, and keeps the rest back. */
function startPost(t: TestContext, service: Service, auth: Record<string, string>, i: number): Streaming {
  const socket = net.connect(service.port, '127.0.0.1');
  t.after(() => socket.destroy());
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  const bytes = body(i);
  socket.write(
    `POST /v2/dogs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\n` +
      `X-Request-Id: in-flight-${i}\r\nAuthorization: ${auth.authorization}\r\n\r\n`,
  );
  socket.write(bytes.subarray(0, 1000));
  return { socket, answer: () => answer, rest: bytes.subarray(1000) };
}

/** The rest of a body in small pieces, a few milliseconds apart: a slow client. */
async function finish(streaming: Streaming): Promise<void> {
  for (let at = 0; at < streaming.rest.length; at += 1024) {
    streaming.socket.write(streaming.rest.subarray(at, at + 1024));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface ShutdownOutcome {
  service: Service;
  auth: Record<string, string>;
  /** The dogs the requests in flight created, as answered. */
  dogs: Array<Record<string, unknown>>;
}

/** Runs the scenario on the storage `env` selects (DATA_DIR alone: SQLite; with DATABASE_URL: PostgreSQL). */
export async function sigtermWithRequestsInFlight(
  t: TestContext,
  env: Record<string, string> = {},
): Promise<ShutdownOutcome> {
  const service = await startService(t, tempDataDir(t), env);
  const auth = await authorize(service);
  const posts = Array.from({ length: IN_FLIGHT }, (_, i) => startPost(t, service, auth, i));
  for (let i = 0; i < IN_FLIGHT; i++)
    await waitForLog(service, (entry) => entry.reqId === `in-flight-${i}` && entry.msg === 'incoming request');

  service.child.kill('SIGTERM');
  await waitForLog(service, (entry) => typeof entry.msg === 'string' && entry.msg.startsWith('shutting down'));
  await eventually('the server refusing new connections', async () => {
    try {
      await request(service, { path: '/healthz' });
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
    }
  });
  assert.equal(service.child.exitCode, null, 'the process waits for the requests in flight');

  await Promise.all(posts.map(finish));
  await eventually('the process exiting', async () => service.child.exitCode !== null);
  assert.deepEqual(await service.exited, { code: 0, signal: null });
  await waitForLog(service, (entry) => entry.msg === 'stopped: requests in flight finished, database closed');

  const dogs = posts.map((post, i) => {
    const [head = '', text = ''] = post.answer().split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 201 Created\r\n/, `request ${i}: ${post.answer()}`);
    assert.match(head, new RegExp(`\r\nx-request-id: in-flight-${i}\r\n`, 'i'));
    const dog = JSON.parse(text).dog as Record<string, unknown>;
    assert.equal(dog.name, `Streamed ${i}`);
    return dog;
  });
  return { service, auth, dogs };
}

/** After a restart on the same data: the dogs the requests in flight were answered with are stored. */
export async function assertStored(
  t: TestContext,
  dataDir: string,
  env: Record<string, string>,
  outcome: ShutdownOutcome,
): Promise<void> {
  const restarted = await startService(t, dataDir, env);
  for (const dog of outcome.dogs) {
    const read = await request(restarted, { path: `/v2/dogs/${String(dog.id)}`, headers: outcome.auth });
    assert.equal(read.status, 200, read.body);
    assert.deepEqual(JSON.parse(read.body).dog, dog);
  }
}
