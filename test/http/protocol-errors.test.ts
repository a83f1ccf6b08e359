// Node's own protocol errors, over a real listening server and raw sockets: each is a 400 in the catalogue's shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type net from 'node:net';
import { entryByCode } from '../../src/errors.js';
import { build, createDog } from '../helper.js';
import { sendRaw } from './raw-socket.js';

const HOST = 'Host: api.test\r\n';
const cases: Array<{ name: string; request: string | Buffer; code: number; requestId?: string; says?: RegExp }> = [
  {
    name: '40 KB of headers',
    request: `GET /v2/dogs HTTP/1.1\r\n${HOST}X-Padding: ${'a'.repeat(40 * 1024)}\r\n\r\n`,
    code: 1009,
  },
  {
    name: 'a huge fields selection in the URL',
    request: `GET /v2/dogs?fields=${'name,'.repeat(4000)}name HTTP/1.1\r\n${HOST}\r\n`,
    code: 1009,
  },
  {
    name: 'an Expect other than 100-continue',
    request: `GET /v2/dogs HTTP/1.1\r\n${HOST}Expect: foo\r\nX-Request-Id: expect-1\r\n\r\n`,
    code: 1010,
    requestId: 'expect-1',
  },
  {
    name: 'two Content-Length headers',
    request: `POST /v2/dogs HTTP/1.1\r\n${HOST}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    code: 1014,
    says: /more than one Content-Length header/,
  },
  {
    name: 'a Content-Length that is not a number',
    request: `POST /v2/dogs HTTP/1.1\r\n${HOST}Content-Length: 2x\r\n\r\n{}`,
    code: 1014,
    says: /not one whole number of bytes/,
  },
  {
    name: 'a Transfer-Encoding other than chunked',
    request: `POST /v2/dogs HTTP/1.1\r\n${HOST}Transfer-Encoding: gzip\r\n\r\n{}`,
    code: 1014,
    says: /Transfer-Encoding is not chunked/,
  },
  { name: 'two Host headers', request: `GET /v2/dogs HTTP/1.1\r\n${HOST}Host: other.test\r\n\r\n`, code: 1016 },
  { name: 'a Host that is not a host', request: 'GET /v2/dogs HTTP/1.1\r\nHost: x/y@z\r\n\r\n', code: 1016 },
  { name: 'a Host with a space in it', request: 'GET /v2/dogs HTTP/1.1\r\nHost: a b\r\n\r\n', code: 1016 },
  {
    name: 'no Host in HTTP/1.1',
    request: 'GET /v2/dogs HTTP/1.1\r\nX-Request-Id: no-host-1\r\n\r\n',
    code: 1011,
    requestId: 'no-host-1',
  },
  { name: 'a method token that is no method', request: `G@T /v2/dogs HTTP/1.1\r\n${HOST}\r\n`, code: 1012 },
  {
    name: 'raw UTF-8 bytes in the path',
    request: Buffer.concat([
      Buffer.from('GET /v2/dogs/'),
      Buffer.from('café', 'utf8'),
      Buffer.from(` HTTP/1.1\r\n${HOST}\r\n`),
    ]),
    code: 1013,
  },
  {
    name: 'a chunked body with a broken chunk size',
    request: `POST /v2/dogs HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    code: 1014,
  },
  {
    name: 'both Content-Length and Transfer-Encoding',
    request: `POST /v2/dogs HTTP/1.1\r\n${HOST}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    says: /both a Content-Length and a Transfer-Encoding/,
    code: 1014,
  },
  { name: 'a header line without a name', request: `GET /v2/dogs HTTP/1.1\r\n${HOST}: nameless\r\n\r\n`, code: 1008 },
];

test("Node's protocol errors answer 400 in the catalogue's shape, with X-Request-Id, and close the connection", async (t) => {
  const api = await build(t);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as net.AddressInfo;
  for (const { name, request, code, requestId, says } of cases) {
    const answer = await sendRaw(port, request);
    assert.equal(answer.statusLine, 'HTTP/1.1 400 Bad Request', name);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8', name);
    assert.equal(answer.headers.connection?.toLowerCase(), 'close', name);
    assert.match(
      answer.headers['x-request-id'] ?? '',
      requestId ? new RegExp(`^${requestId}$`) : /^[0-9a-f-]{36}$/,
      name,
    );
    assert.equal(Number(answer.headers['content-length']), Buffer.byteLength(answer.body), name);
    const body = JSON.parse(answer.body) as { message: string; more_info: string; code: number };
    assert.deepEqual(Object.keys(body), ['message', 'more_info', 'code'], name);
    assert.equal(body.code, code, name);
    assert.equal(body.more_info, `${api.config.portalUrl}/errors/${code}`, name);
    assert.ok(entryByCode(code), `${name}: code ${code} is in the catalogue`);
    assert.ok(body.message.length > 20, name);
    if (says) assert.match(body.message, says, name);
    assert.ok(Math.abs(Date.parse(answer.headers.date ?? '') - Date.now()) < 60_000, `${name}: a Date header`);
    assert.equal(answer.headers['cache-control'], 'no-store', name);
  }
});

test('a protocol error answers in the format its request asked for, as far as Node kept it', async (t) => {
  const api = await build(t);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as net.AddressInfo;
  const xml = 'Accept: application/xml\r\n';
  for (const [name, request] of [
    [
      'Accept, two Content-Lengths',
      `POST /v2/dogs HTTP/1.1\r\n${HOST}${xml}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    ],
    ['a .xml suffix, a nameless header', `GET /v2/dogs.xml HTTP/1.1\r\n${HOST}: nameless\r\n\r\n`],
    [
      'Accept, both framings',
      `POST /v2/dogs HTTP/1.1\r\n${HOST}${xml}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ],
  ] as const) {
    const answer = await sendRaw(port, request);
    assert.equal(answer.statusLine, 'HTTP/1.1 400 Bad Request', name);
    assert.equal(answer.headers['content-type'], 'application/xml; charset=utf-8', name);
    assert.match(
      answer.body,
      /^<\?xml version="1\.0" encoding="UTF-8"\?><error><message>.+<\/message><more_info>.+<code>10\d\d<\/code><\/error>$/,
      name,
    );
  }
  // A .json suffix wins over Accept, as on any answer.
  const json = await sendRaw(port, `GET /v2/dogs.json HTTP/1.1\r\n${HOST}${xml}: nameless\r\n\r\n`);
  assert.equal(json.headers['content-type'], 'application/json; charset=utf-8');
});

test('a request whose body trickles in past the request timeout is a 400 in the catalogue shape, and closed', async (t) => {
  const api = await build(t, {}, undefined, { requestTimeoutMs: 1000 });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as net.AddressInfo;
  const started = performance.now();
  // Fifty bytes announced, five sent, and the rest never: Fastify waits for the body, Node's timer does not.
  const answer = await sendRaw(
    port,
    `POST /v2/dogs HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${api.credentials.token}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{"nam',
  );
  const waited = performance.now() - started;
  assert.equal(answer.statusLine, 'HTTP/1.1 400 Bad Request');
  assert.equal(answer.headers.connection?.toLowerCase(), 'close');
  const body = JSON.parse(answer.body) as { message: string; code: number };
  assert.equal(body.code, 1008);
  assert.match(body.message, /did not arrive completely in the time the service waits for one/);
  assert.ok(waited >= 900 && waited < 4000, `answered after ${Math.round(waited)} ms`);
  assert.equal(api.app.server.requestTimeout, 1000);
});

test('an Expect the service does not meet is answered in the format asked for, suppressed on request', async (t) => {
  const api = await build(t);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as net.AddressInfo;
  const suppressed = await sendRaw(
    port,
    `GET /v2/dogs.xml?suppress_response_codes=TRUE HTTP/1.1\r\n${HOST}Expect: 999-foo\r\n\r\n`,
  );
  assert.equal(suppressed.statusLine, 'HTTP/1.1 200 OK');
  assert.equal(suppressed.headers['content-type'], 'application/xml; charset=utf-8');
  assert.match(suppressed.body, /^<\?xml[^>]*\?><error><response_code>400<\/response_code><message>The Expect header/);
  assert.match(suppressed.body, /<code>1010<\/code><\/error>$/);
  const byAccept = await sendRaw(
    port,
    `GET /v2/dogs HTTP/1.1\r\n${HOST}Accept: application/xml\r\nExpect: foo\r\n\r\n`,
  );
  assert.equal(byAccept.statusLine, 'HTTP/1.1 400 Bad Request');
  assert.match(byAccept.body, /^<\?xml[^>]*\?><error><message>The Expect header &quot;foo&quot; is not/);
  // Outside the API, suppress_response_codes means nothing: the status stays.
  const outside = await sendRaw(
    port,
    `GET /healthz?suppress_response_codes=true HTTP/1.1\r\n${HOST}Expect: foo\r\n\r\n`,
  );
  assert.equal(outside.statusLine, 'HTTP/1.1 400 Bad Request');
  assert.equal(JSON.parse(outside.body).code, 1010);
});

test('an HTTP/1.0 request needs no Host, and the server still answers after protocol errors', async (t) => {
  const api = await build(t);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as net.AddressInfo;
  await sendRaw(port, `G@T / HTTP/1.1\r\n${HOST}\r\n`);
  const answer = await sendRaw(port, 'GET /healthz HTTP/1.0\r\n\r\n');
  assert.equal(answer.statusLine, 'HTTP/1.1 200 OK');
  assert.match(answer.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
  assert.deepEqual(JSON.parse(answer.body), { status: 'ok' });
});

test("a HEAD request's protocol error answers the same head with no body", async (t) => {
  const api = await build(t);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as net.AddressInfo;
  const padding = `X-Padding: ${'a'.repeat(40 * 1024)}\r\n`;
  const get = await sendRaw(port, `GET /v2/dogs HTTP/1.1\r\n${HOST}${padding}\r\n`);
  const head = await sendRaw(port, `HEAD /v2/dogs HTTP/1.1\r\n${HOST}${padding}\r\n`);
  assert.equal(head.statusLine, 'HTTP/1.1 400 Bad Request');
  assert.equal(head.body, '');
  assert.equal(head.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(head.headers['content-length'], get.headers['content-length']);
  assert.equal((JSON.parse(get.body) as { code: number }).code, 1009);
});

test('the request target * answers OPTIONS with the methods the service knows, and any other method with 1015', async (t) => {
  const api = await build(t);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as net.AddressInfo;
  const options = await sendRaw(port, `OPTIONS * HTTP/1.1\r\n${HOST}Connection: close\r\n\r\n`);
  assert.equal(options.statusLine, 'HTTP/1.1 200 OK');
  assert.equal(options.headers.allow, 'GET, HEAD, POST, PUT, DELETE, OPTIONS');
  assert.equal(options.headers['content-length'], '0');
  assert.equal(options.body, '');
  for (const method of ['GET', 'POST', 'DELETE']) {
    const answer = await sendRaw(port, `${method} * HTTP/1.1\r\n${HOST}Connection: close\r\n\r\n`);
    assert.equal(answer.statusLine, 'HTTP/1.1 400 Bad Request', method);
    assert.match(answer.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/, method);
    const body = JSON.parse(answer.body) as { message: string; more_info: string; code: number };
    assert.equal(body.code, 1015, method);
    assert.equal(body.more_info, `${api.config.portalUrl}/errors/1015`, method);
    assert.match(body.message, new RegExp(`Send ${method} to a path`), method);
  }
});

test('a request target in absolute form is its path and query; the links are built from {base} all the same', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'Rex' });
  await createDog(api, { name: 'Fido' });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as net.AddressInfo;
  const auth = `Authorization: Bearer ${api.credentials.token}\r\n`;
  for (const target of [
    `http://127.0.0.1:${port}/v2/dogs.json?limit=1`,
    `HTTP://elsewhere.example/v2/dogs.json?limit=1`,
  ]) {
    const answer = await sendRaw(
      port,
      `GET ${target} HTTP/1.1\r\n${HOST}${auth}Prefer: count=exact\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(answer.statusLine, 'HTTP/1.1 200 OK', target);
    assert.equal(JSON.parse(answer.body).dogs.length, 1, target);
    const links = answer.headers.link!.split(', ');
    assert.deepEqual(
      links.map((link) => /^<([^>]*)>/.exec(link)?.[1]),
      [
        `${api.config.publicUrl}/v2/dogs.json?limit=1&offset=0`,
        `${api.config.publicUrl}/v2/dogs.json?limit=1&offset=1`,
        `${api.config.publicUrl}/v2/dogs.json?limit=1&offset=1`,
      ],
      target,
    );
  }
});

test('the dev and developer host aliases are matched whatever their case', async (t) => {
  const api = await build(t);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as net.AddressInfo;
  for (const host of ['DEV.api.test', 'Developer.API.test']) {
    const answer = await sendRaw(port, `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    assert.equal(answer.statusLine, 'HTTP/1.1 302 Found', host);
    assert.equal(answer.headers.location, api.config.portalUrl, host);
  }
});
