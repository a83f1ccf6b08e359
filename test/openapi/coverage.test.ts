// Every endpoint the app registers is documented, with exactly the methods the live API offers, and nothing else is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resources } from '../../src/resources/index.js';
import { BASE, build } from '../helper.js';
import { fetchDocument, liveUrl, registeredRoutes } from './document-helper.js';

const API_ROUTE = /^\/v1(\/.*)$/;
const OAUTH_ROUTE = /^\/(oauth2\/|\.well-known\/oauth-)/;

test('the documents list exactly the API routes the app registers, and describe its OAuth routes in the security scheme', async (t) => {
  const api = await build(t);
  const routes = registeredRoutes(api.app);
  assert.ok(routes.has('/v2/owners/:id/dogs/search'), 'the route tree is read');
  const expected = [...routes.keys()].flatMap((route) => {
    const match = API_ROUTE.exec(route);
    // Each route is documented three times: negotiated, and with each format suffix (.json, .xml).
    const path = match?.[1]!.replace(/:(\w+)/g, '{$1}');
    return path ? [path, `${path}.json`, `${path}.xml`] : [];
  });
  const oauth = [...routes.keys()].filter((route) => OAUTH_ROUTE.test(route));
  assert.equal(oauth.length, 5);
  for (const version of [1, 2]) {
    const document = await fetchDocument(api, version);
    assert.deepEqual(Object.keys(document.paths).sort(), [...expected].sort(), `v${version}`);
    // Outside /v<N> and no version's: named with their methods in the oauth2 scheme rather than as paths.
    for (const route of oauth) {
      const allow = String((await api.request({ method: 'PATCH', url: route, token: null })).headers.allow).replace(
        ', HEAD',
        '',
      );
      assert.ok(
        document.components.securitySchemes.oauth2.description.includes(`${allow} ${BASE}${route}:`),
        `${allow} ${route} is described`,
      );
    }
  }
  const v1 = [...routes.keys()].filter((route) => route.startsWith('/v1/')).map((route) => route.slice(3));
  assert.deepEqual(
    v1.sort(),
    [...routes.keys()]
      .filter((route) => route.startsWith('/v2/'))
      .map((route) => route.slice(3))
      .sort(),
    'both versions have the same paths',
  );
});

test('each documented path offers exactly the methods of the live Allow header, and OPTIONS only where CORS answers it', async (t) => {
  const api = await build(t);
  for (const version of [1, 2]) {
    const document = await fetchDocument(api, version);
    for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
      const url = liveUrl(path, version);
      // A POST that only carries a method override (operationId override…) is not offered by itself: Allow leaves it out.
      const carrier = String((item.post as { operationId?: string } | undefined)?.operationId).startsWith('override');
      const documented = Object.keys(item)
        .filter((key) => !['parameters', 'description', 'options'].includes(key) && !(key === 'post' && carrier))
        .map((key) => key.toUpperCase());
      assert.equal(carrier, documented.includes('PUT') && !documented.includes('POST'), `${url} carries overrides`);
      const live = await api.request({ method: 'PATCH', url });
      assert.equal(live.statusCode, 400, `PATCH ${url}`);
      const offered = String(live.headers.allow)
        .split(', ')
        .filter((method) => method !== 'HEAD');
      assert.deepEqual(documented.sort(), offered.sort(), url);
      const preflight = await api.request({
        method: 'OPTIONS',
        url,
        token: null,
        headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
      });
      assert.equal(preflight.statusCode === 200, 'options' in item, `OPTIONS ${url} is ${preflight.statusCode}`);
    }
  }
});

test('every association with a nested path, and every association field, comes from the definitions', async (t) => {
  const document = await fetchDocument(await build(t), 2);
  const { schemas } = document.components;
  for (const def of resources) {
    const item = schemas[`${def.singular.charAt(0).toUpperCase() + def.singular.slice(1)}Fields`];
    for (const [name, association] of Object.entries(def.associations)) {
      assert.ok(item.properties[name], `${def.singular}.${name} is an item field`);
      if (association.kind !== 'many' || !association.nestedPath) continue;
      assert.ok(document.paths[`/${def.name}/{id}/${name}`].get, `GET /${def.name}/{id}/${name}`);
      const creates = 'reverseField' in association && association.nestedCreate === true;
      assert.equal(
        Boolean(document.paths[`/${def.name}/{id}/${name}`].post),
        creates,
        `POST /${def.name}/{id}/${name}`,
      );
      assert.equal(
        Boolean(document.paths[`/${def.name}/{id}/${name}/search`]),
        creates,
        `/${def.name}/{id}/${name}/search`,
      );
    }
  }
});
