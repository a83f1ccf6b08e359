// What the fuzz test found, each kept as a focused regression test: JSON values that are objects whose `toString` is
// no function (a 500), and a CONNECT (a connection closed without an answer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type net from 'node:net';
import { catalogue } from '../../src/errors.js';
import { build } from '../helper.js';
import { exchange, type RawAnswer } from './fuzz/wire.js';

test('a state given as an object whose toString is no function is a 400 that shows it as JSON, not a 500', async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    json: { name: 'Rex', state: { toString: 'x' } },
  });
  assert.equal(response.statusCode, 400, response.body);
  assert.match(String(response.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  assert.deepEqual(response.json(), {
    message: 'The field "state" must be one of: registered, adoptable, adopted, lost, got {"toString":"x"}.',
    more_info: `${api.config.portalUrl}/errors/${catalogue.valueNotAllowed.code}`,
    code: catalogue.valueNotAllowed.code,
  });
  const count = await api.request({ url: '/v2/dogs/count' });
  assert.deepEqual(count.json(), { count: 0 }, 'nothing was created');
});

test('a method override given as an object in a JSON body is a 400 that shows it as JSON, not a 500', async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'POST',
    url: '/v2/dogs.xml',
    json: { name: 'Rex', method: { toString: 'c' } },
  });
  assert.equal(response.statusCode, 400, response.body);
  assert.equal(response.headers['content-type'], 'application/xml; charset=utf-8');
  assert.match(String(response.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  assert.equal(
    response.body,
    '<?xml version="1.0" encoding="UTF-8"?><error><message>The method override {&quot;toString&quot;:&quot;c&quot;} ' +
      'is not one of post, put, delete. Send it as ?method=put (or the X-HTTP-Method-Override header on a POST).' +
      `</message><more_info>${api.config.portalUrl}/errors/${catalogue.methodOverrideInvalid.code}</more_info>` +
      `<code>${catalogue.methodOverrideInvalid.code}</code></error>`,
  );
});

test('a CONNECT gets a 400 in the catalogue shape with its X-Request-Id instead of a closed connection', async (t) => {
  const api = await build(t);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as net.AddressInfo;
  const request = 'CONNECT api.test:443 HTTP/1.1\r\nHost: api.test:443\r\nX-Request-Id: connect-1\r\n\r\n';
  const { answers, broken } = await exchange(port, Buffer.from(request), false);
  assert.equal(broken, undefined);
  assert.equal(answers.length, 1);
  const [answer] = answers as [RawAnswer];
  assert.equal(answer.status, 400);
  assert.equal(answer.headers['x-request-id'], 'connect-1');
  assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(answer.headers.connection, 'close');
  assert.deepEqual(JSON.parse(answer.body), {
    message: 'CONNECT asks for a tunnel through a proxy, and this service is not one. Use GET, POST, PUT or DELETE.',
    more_info: `${api.config.portalUrl}/errors/${catalogue.methodTokenInvalid.code}`,
    code: catalogue.methodTokenInvalid.code,
  });
  const health = await exchange(port, Buffer.from('GET /healthz HTTP/1.1\r\nHost: api.test\r\n\r\n'), false);
  assert.equal(health.answers[0]?.status, 200, 'the server still answers');
});
