// The replay's recorder keeps what each test app was sent and answered, injected or over a real socket.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { build } from '../helper.js';
import { readTraffic } from './traffic-check.js';
import { recordTraffic } from './traffic-recorder.js';

function scratch(t: { after(fn: () => void): void }): string {
  const directory = mkdtempSync(join(tmpdir(), 'traffic-'));
  t.after(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

test('the recorder keeps method, URL, request type, status, answer type and body of injected requests', async (t) => {
  const directory = scratch(t);
  const api = await build(t);
  recordTraffic(api.app, directory);
  const created = await api.request({ method: 'POST', url: '/v2/dogs.xml', json: { name: 'Rex' } });
  await api.request({ url: '/v2/dogs?limit=1', headers: { accept: 'application/xml' } });
  const lines = readTraffic(directory);
  assert.equal(lines.length, 2);
  assert.deepEqual(lines[0], {
    file: 'test/openapi/traffic-recorder.test.ts',
    method: 'POST',
    url: '/v2/dogs.xml',
    requestType: 'application/json',
    requestBody: '{"name":"Rex"}',
    status: 201,
    type: 'application/xml; charset=utf-8',
    body: created.body,
  });
  assert.equal(lines[1]!.accept, 'application/xml');
  assert.match(lines[1]!.body, /^<\?xml[^>]*>\s*<dogs>/);
});

test('the recorder keeps the exchanges of a listening server, with the URL as sent', async (t) => {
  const directory = scratch(t);
  const api = await build(t);
  recordTraffic(api.app, directory);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as { port: number };
  const response = await fetch(`http://127.0.0.1:${port}/v1/dogs.json?limit=2`, {
    headers: { authorization: `Bearer ${api.credentials.token}`, 'x-http-method-override': 'POST' },
    method: 'POST',
  });
  const body = await response.text();
  // The server writes its line when the answer has left it, which can be just after the client has read it.
  for (let wait = 0; wait < 50 && readTraffic(directory).length === 0; wait++) await setTimeout(10);
  const [line] = readTraffic(directory);
  assert.equal(line!.method, 'POST');
  assert.equal(line!.url, '/v1/dogs.json?limit=2');
  assert.equal(line!.override, 'POST');
  assert.equal(line!.status, response.status);
  assert.equal(line!.type, response.headers.get('content-type'));
  assert.equal(line!.body, body);
});
