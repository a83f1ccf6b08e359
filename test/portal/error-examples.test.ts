// The example on every /errors/<code> page (src/error-examples.ts) is what the service answers: each example's request
// is sent to the app (over a real socket when it is raw bytes; in its situation when no request alone gets it) and
// its answer must carry the entry's status and code and the example's message, word for word.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { catalogueEntries, type ErrorName } from '../../src/errors.js';
import { errorExamples, type ErrorExample } from '../../src/error-examples.js';
import type { JsonPage } from '../../src/storage/storage.js';
import type { IdempotencyClaim } from '../../src/storage/storage.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { BASE, build, createDog, createItem, type TestApp } from '../helper.js';
import { sendRaw } from '../http/raw-socket.js';

interface Answer {
  status: number;
  requestId: string;
  headers: Record<string, string>;
  body: string;
}

/** The example's placeholders, as the test fills them. */
interface Filled {
  dog: string;
  /** The dog's ETag, without its quotes. */
  etag: string;
  token: string;
}

function fill(text: string, values: Filled & { requestId?: string }): string {
  return text
    .replaceAll('{base}', BASE)
    .replaceAll('{portal}', `${BASE}/portal`)
    .replaceAll('{host}', new URL(BASE).host)
    .replaceAll('{dog}', values.dog)
    .replaceAll('{etag}', values.etag)
    .replaceAll('{token}', values.token)
    .replaceAll('{requestId}', values.requestId ?? '{requestId}');
}

/** A token of the account with the read scope only. */
async function readOnlyToken(api: TestApp): Promise<string> {
  const { clientId, clientSecret } = api.credentials;
  const response = await api.app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: 'grant_type=client_credentials&scope=read',
  });
  return (response.json() as { access_token: string }).access_token;
}

/** Sends the example's request (after its `before`s) and gives the answer. */
async function send(api: TestApp, example: ErrorExample, filled: Filled): Promise<Answer> {
  if (example.raw !== undefined) {
    if (!api.app.server.listening) await api.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = api.app.server.address() as AddressInfo;
    const raw = await sendRaw(port, fill(example.raw, filled));
    return {
      status: Number(raw.statusLine.split(' ')[1]),
      requestId: raw.headers['x-request-id'] ?? '',
      headers: raw.headers,
      body: raw.body,
    };
  }
  const [method, target] = example.request.split(' ') as [string, string];
  const token =
    example.token === 'none' ? null : example.token === 'read-only' ? await readOnlyToken(api) : filled.token;
  const once = async (body: string | undefined): Promise<Answer> => {
    const response = await api.request({
      method: method as 'GET',
      url: fill(target, filled).replace('{portal}', '/portal').replace(BASE, ''),
      headers: Object.fromEntries(
        Object.entries(example.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
      ),
      ...(body === undefined ? {} : { body }),
      token,
    });
    return {
      status: response.statusCode,
      requestId: String(response.headers['x-request-id']),
      headers: response.headers as Record<string, string>,
      body: response.body,
    };
  };
  for (let time = 0; time < (example.before?.times ?? (example.before ? 1 : 0)); time += 1)
    await once(example.before?.body ?? example.body);
  return once(example.body);
}

function check(name: ErrorName, example: ErrorExample, answer: Answer, filled: Filled): void {
  const entry = catalogueEntries().find((candidate) => candidate.name === name)!;
  assert.equal(answer.status, entry.status, `${name}: ${answer.body}`);
  const body = JSON.parse(answer.body) as { message: string; code: number; more_info: string };
  assert.equal(body.code, entry.code);
  assert.equal(body.more_info, `${BASE}/portal/errors/${entry.code}`);
  assert.equal(body.message, fill(example.message, { ...filled, requestId: answer.requestId }), name);
  for (const [header, value] of Object.entries(example.answerHeaders ?? {}))
    assert.equal(answer.headers[header.toLowerCase()], value, `${name}: ${header}`);
}

async function placeholders(api: TestApp): Promise<Filled> {
  const dog = String((await createDog(api, { name: 'Rex' })).id);
  const read = await api.request({ url: `/v2/dogs/${dog}` });
  return { dog, etag: String(read.headers.etag).replaceAll('"', ''), token: api.credentials.token };
}

/** The examples a request alone gets, grouped by the settings they assume: one app for each group. */
const byRequest = Object.entries(errorExamples).filter(([, example]) => example.situation === undefined) as Array<
  [ErrorName, ErrorExample]
>;
const settingsOf = (example: ErrorExample): string => JSON.stringify(example.settings ?? {});

for (const settings of new Set(byRequest.map(([, example]) => settingsOf(example)))) {
  const group = byRequest.filter(([, example]) => settingsOf(example) === settings);
  test(`the examples' requests get their answers (${group.map(([name]) => name).join(', ')})`, async (t) => {
    for (const [name, example] of group) {
      // Each example on an app of its own: one's `before`s (a rate limit, a key) never reach another.
      const api = await build(t, JSON.parse(settings) as Record<string, string>);
      const filled = await placeholders(api);
      check(name, example, await send(api, example, filled), filled);
    }
  });
}

/** Storage of an example's situation: SQLite that fails as the situation does. */
class SituationStorage extends SqliteStorage {
  constructor(private readonly failing: 'disk' | 'key pending') {
    super(':memory:');
  }
  override async listJson(...args: Parameters<SqliteStorage['listJson']>): Promise<JsonPage> {
    if (this.failing === 'disk') throw new Error('SQLITE_IOERR_SHORT_READ: disk I/O error');
    return super.listJson(...args);
  }
  override async claimIdempotencyKey(): Promise<IdempotencyClaim> {
    if (this.failing === 'key pending') return { state: 'pending' };
    throw new Error('not in this situation');
  }
}

async function inSituation(t: TestContext, name: ErrorName): Promise<void> {
  const example = errorExamples[name];
  assert.ok(example.situation, `${name} is an example of a situation`);
  const failing = name === 'internal' ? 'disk' : name === 'idempotencyInProgress' ? 'key pending' : undefined;
  let storage: SqliteStorage | undefined;
  if (failing) {
    storage = new SituationStorage(failing);
    await storage.migrate();
  }
  const api = await build(t, {}, storage);
  const filled = await placeholders(api);
  if (name === 'databaseUnavailable') await api.storage.close();
  if (name === 'answerTooLarge') {
    const owner = await createItem(api, 'owners', { name: 'Ann' });
    for (let dog = 0; dog < 100; dog += 1) await createDog(api, { name: `Dog ${dog}`, ownerId: String(owner.id) });
  }
  const answer =
    name === 'shuttingDown' ? await whileClosing(api) : await send(api, { ...example, situation: undefined }, filled);
  check(name, example, answer, filled);
}

/**
 * A request that arrives while the node stops: on a connection that is busy with a request (its body half sent) when
 * the close begins, so that the connection stays open; the next request on it, sent behind the body, is turned away.
 */
async function whileClosing(api: TestApp): Promise<Answer> {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = once(socket, 'close');
  const host = new URL(BASE).host;
  socket.write(
    `POST /v2/dogs HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${api.credentials.token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: 15\r\n\r\n{"name": `,
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  const stopping = api.app.close();
  await new Promise(setImmediate);
  socket.write(
    `"Rex"}GET /v2/dogs HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${api.credentials.token}\r\n` +
      `Connection: close\r\n\r\n`,
  );
  await closed;
  await stopping;
  const text = Buffer.concat(chunks).toString('utf8');
  const second = text.slice(text.indexOf('HTTP/1.1', 1));
  const split = second.indexOf('\r\n\r\n');
  const head = second.slice(0, split);
  return {
    status: Number(head.split(' ')[1]),
    requestId: /^x-request-id: (.*)$/im.exec(head)?.[1]?.trim() ?? '',
    headers: {},
    body: second.slice(split + 4),
  };
}

for (const name of Object.keys(errorExamples) as ErrorName[]) {
  if (errorExamples[name].situation === undefined) continue;
  test(`the example of ${name} is its answer in its situation`, (t) => inSituation(t, name));
}

test('every catalogue entry has an example, and every example an entry', () => {
  assert.deepEqual(
    Object.keys(errorExamples).sort(),
    catalogueEntries()
      .map((entry) => entry.name)
      .sort(),
  );
});

test("every error code's page shows its example: the request and the answer, on the service's own addresses", async (t) => {
  const api = await build(t);
  for (const entry of catalogueEntries()) {
    const response = await api.app.inject({ url: `/portal/errors/${entry.code}` });
    assert.equal(response.statusCode, 200);
    const example = /<h2 id="example">Example<\/h2>([\s\S]*?)<p><a href="\/portal\/errors">/.exec(response.body)?.[1];
    assert.ok(example, `the page of ${entry.code} has an example`);
    const method = errorExamples[entry.name].request.split(' ')[0]!;
    assert.match(example, new RegExp(`<pre><code>${method} `), `${entry.code}: the request line`);
    assert.match(example, new RegExp(`HTTP/1.1 ${entry.status} `), `${entry.code}: the status line`);
    assert.ok(example.includes(`&quot;code&quot;: ${entry.code}`), `${entry.code}: the code`);
    assert.ok(example.includes(`${BASE}/portal/errors/${entry.code}`), `${entry.code}: more_info`);
    assert.doesNotMatch(example, /\{(base|portal|host|dog|etag|token|requestId)\}/, `${entry.code}: no placeholder`);
  }
  const limit = (await api.app.inject({ url: '/portal/errors/2001' })).body;
  assert.ok(limit.includes(`GET ${BASE}/v2/dogs?limit=500\nAuthorization: Bearer YOUR_TOKEN`));
  assert.ok(
    limit.includes(
      '&quot;message&quot;: &quot;limit must be a whole number from 1 to 100, got \\&quot;500\\&quot;. Leave it out for the default of 10.&quot;',
    ),
  );
});
