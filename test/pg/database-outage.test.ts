// The real process when PostgreSQL goes away and comes back (SPEC §8, §10): while it is unreachable every answer is a
// prompt 500 with the retryable 9002 (and /readyz a prompt 500); once it is back the next requests succeed at once;
// and SIGTERM after the outage still exits 0. Between the service and PostgreSQL is a TCP proxy the test cuts.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { authorize, request, startService, tempDataDir, type Response } from '../ops/process-helper.js';
import { createDatabase, skipWithoutPostgres } from './databases.js';

/**
 * Far above what an answer takes when the database refuses connections (milliseconds) or is back (the same), far below
 * what the driver's own backoff made them take (15–25 s after a few failed connections).
 */
const PROMPT_MS = 8000;
/** /readyz gives up on the database after 2 s: well under a connection attempt's 5 s. */
const READY_MS = 4000;

/**
 * A TCP proxy to `target` that can be cut (connections reset, new ones refused) and restored on the same port; while
 * `silent`, it accepts connections and sends nothing on, as a PostgreSQL host that hangs does.
 */
class Proxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  /** Each connection's two sockets, for hush. */
  private readonly pairs = new Set<readonly [net.Socket, net.Socket]>();
  port = 0;
  silent = false;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const server = net.createServer((client) => {
      if (this.silent) {
        this.sockets.add(client);
        client.on('close', () => this.sockets.delete(client));
        client.on('error', () => client.destroy());
        return;
      }
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      const pair = [client, upstream] as const;
      this.pairs.add(pair);
      client.on('close', () => (upstream.destroy(), this.pairs.delete(pair)));
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /**
   * The network goes silent: the open connections stay open and carry nothing more either way (as in a partition,
   * where nothing resets them), and new ones are accepted and answered with nothing.
   */
  hush(): void {
    this.silent = true;
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      // Read and dropped.
      client.resume();
      upstream.resume();
    }
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.resetAndDestroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function timed(send: () => Promise<Response>): Promise<Response & { ms: number }> {
  const started = performance.now();
  const response = await send();
  return { ...response, ms: performance.now() - started };
}

async function throughProxy(t: TestContext): Promise<{ proxy: Proxy; url: string }> {
  const database = await createDatabase();
  t.after(() => database.drop());
  const url = new URL(database.url);
  const proxy = new Proxy({ host: url.hostname, port: Number(url.port) });
  await proxy.open();
  t.after(() => proxy.cut());
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return { proxy, url: url.toString() };
}

/** The real process on a database behind the proxy, a pool of three, and a token of its own. */
async function serviceThroughProxy(t: TestContext) {
  const { proxy, url } = await throughProxy(t);
  const service = await startService(t, tempDataDir(t), { DATABASE_URL: url, PG_POOL_SIZE: '3' });
  return { proxy, service, auth: await authorize(service) };
}

test(
  'PostgreSQL unreachable: prompt 500s with 9002 and a prompt /readyz 500; back: answers at once; SIGTERM exits 0',
  { skip: skipWithoutPostgres },
  async (t) => {
    const { proxy, service, auth } = await serviceThroughProxy(t);
    assert.equal((await request(service, { path: '/v2/dogs', headers: auth })).status, 200);

    await proxy.cut();
    // Long enough for the driver to fail to connect again and again (its backoff grew with each failure).
    const until = performance.now() + 8000;
    let answered = 0;
    while (performance.now() < until) {
      const [list, ready] = await Promise.all([
        timed(() => request(service, { path: '/v2/dogs', headers: auth })),
        timed(() => request(service, { path: '/readyz' })),
      ]);
      assert.equal(list.status, 500, list.body);
      assert.equal(JSON.parse(list.body).code, 9002);
      assert.ok(list.ms < PROMPT_MS, `a request while PostgreSQL was away took ${Math.round(list.ms)} ms`);
      assert.equal(ready.status, 500, ready.body);
      assert.deepEqual(JSON.parse(ready.body), { status: 'unavailable', database: 'postgres' });
      assert.ok(ready.ms < PROMPT_MS, `/readyz while PostgreSQL was away took ${Math.round(ready.ms)} ms`);
      answered += 1;
      await sleep(200);
    }
    assert.ok(answered >= 2, `${answered} rounds of requests in the outage`);

    await proxy.open();
    const back = await timed(() => request(service, { path: '/v2/dogs', headers: auth }));
    assert.equal(back.status, 200, back.body);
    assert.ok(back.ms < PROMPT_MS, `the first request after PostgreSQL came back took ${Math.round(back.ms)} ms`);
    assert.equal((await request(service, { path: '/readyz' })).status, 200);

    service.child.kill('SIGTERM');
    assert.deepEqual(await service.exited, { code: 0, signal: null });
  },
);

test(
  'PostgreSQL accepting connections and answering nothing: /readyz and API requests still answer 500 in time',
  { skip: skipWithoutPostgres },
  async (t) => {
    const { proxy, service, auth } = await serviceThroughProxy(t);
    // Past the token cache's 4 s, so that the request needs the database for its token too.
    await proxy.cut();
    proxy.silent = true;
    await proxy.open();
    await sleep(4500);
    const [list, ready] = await Promise.all([
      timed(() => request(service, { path: '/v2/dogs', headers: auth })),
      timed(() => request(service, { path: '/readyz' })),
    ]);
    assert.equal(ready.status, 500, ready.body);
    assert.ok(ready.ms < READY_MS, `/readyz took ${Math.round(ready.ms)} ms`);
    assert.equal(list.status, 500, list.body);
    assert.equal(JSON.parse(list.body).code, 9002);
    assert.ok(list.ms < PROMPT_MS, `a request took ${Math.round(list.ms)} ms`);

    await proxy.cut();
    proxy.silent = false;
    await proxy.open();
    service.child.kill('SIGTERM');
    assert.deepEqual(await service.exited, { code: 0, signal: null });
  },
);

test(
  'PostgreSQL going silent under requests in flight: every request answers 9002 within the deadline; back: at once',
  // Before the deadlines, a request on a silent connection waited for good.
  { skip: skipWithoutPostgres, timeout: 60_000 },
  async (t) => {
    const { proxy, service, auth } = await serviceThroughProxy(t);
    assert.equal((await request(service, { path: '/v2/dogs', headers: auth })).status, 200);

    proxy.hush();
    // More requests than connections: some wait on a connection whose statement gets no answer, the rest for a
    // connection at all; a sign-up and a create each need a transaction.
    const sent = [
      ...Array.from({ length: 8 }, () => timed(() => request(service, { path: '/v2/dogs', headers: auth }))),
      timed(() =>
        request(service, {
          method: 'POST',
          path: '/v2/dogs',
          headers: { ...auth, 'content-type': 'application/json' },
          body: '{"name":"Rex"}',
        }),
      ),
      timed(() =>
        request(service, {
          method: 'POST',
          path: '/portal/signup',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: 'email=silent%40example.com&password=a+long+passphrase&appName=Silent',
        }),
      ),
    ];
    for (const answer of await Promise.all(sent)) {
      assert.equal(answer.status, 500, answer.body);
      assert.equal(JSON.parse(answer.body).code, 9002, answer.body);
      assert.ok(answer.ms < PROMPT_MS, `a request while PostgreSQL was silent took ${Math.round(answer.ms)} ms`);
    }

    // Back, with the silent connections still open: the service closed them itself, so nothing waits on them.
    proxy.silent = false;
    const back = await timed(() => request(service, { path: '/v2/dogs', headers: auth }));
    assert.equal(back.status, 200, back.body);
    assert.ok(back.ms < PROMPT_MS, `the first request after PostgreSQL came back took ${Math.round(back.ms)} ms`);

    service.child.kill('SIGTERM');
    assert.deepEqual(await service.exited, { code: 0, signal: null });
  },
);
