// The query parameters an operation accepts at runtime are exactly the ones its OpenAPI description lists: both read its descriptor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import type { Endpoint } from '../../src/http/endpoint.js';
import { pathItem } from '../../src/openapi/paths.js';
import { resources } from '../../src/resources/index.js';
import { resourceEndpoints } from '../../src/routes/resource-routes.js';
import { build } from '../helper.js';
import { fetchDocument, liveUrl, operationsOf, resolve, type Json } from './document-helper.js';

/** The query parameters documented for one operation, its path's included. */
function documentedQuery(document: Json, path: string, operation: Json): string[] {
  const all = [...(document.paths[path].parameters ?? []), ...(operation.parameters ?? [])].map((parameter: Json) =>
    resolve(document, parameter),
  );
  return all.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
}

test('every documented operation accepts exactly its documented query parameters, and names them when refusing another', async (t) => {
  const api = await build(t);
  for (const version of [1, 2]) {
    const document = await fetchDocument(api, version);
    for (const [path, method, operation] of operationsOf(document)) {
      if (method === 'options' || path.endsWith('.xml')) continue;
      const url = `${liveUrl(path, version)}?zz_unknown=1`;
      const response = await api.request({
        method: method.toUpperCase() as 'GET',
        url,
        ...(method === 'post' || method === 'put' ? { json: { name: 'Rex' } } : {}),
        // The override carrier is a POST only with the override it carries.
        ...(String(operation.operationId).startsWith('override')
          ? { headers: { 'x-http-method-override': 'PUT' } }
          : {}),
      });
      assert.equal(response.statusCode, 400, `${method} ${url}`);
      assert.equal(response.json().code, 2000, `${method} ${url}: ${response.body}`);
      const listed = /Accepted parameters: (.*)\.$/.exec(response.json().message)![1]!.split(', ');
      const documented = documentedQuery(document, path, operation);
      // access_token is the accessToken security scheme, not a parameter; the open operation tolerates it unused.
      // The override carrier's refusal lists the parameters of the PUT it carried out, where method means nothing.
      const carrier = String(operation.operationId).startsWith('override');
      const expected = [...documented.filter((name) => !carrier || name !== 'method'), 'access_token'];
      assert.deepEqual(
        [...listed].sort(),
        [...new Set(expected)].sort(),
        `${method.toUpperCase()} ${path} (v${version})`,
      );
    }
  }
});

test('every documented query parameter passes the runtime check of its operation', async (t) => {
  const api = await build(t);
  const document = await fetchDocument(api, 2);
  for (const [path, method, operation] of operationsOf(document)) {
    if (method !== 'get' || path.endsWith('.xml')) continue;
    for (const name of documentedQuery(document, path, operation)) {
      const response = await api.request({ url: `${liveUrl(path, 2)}?${name}=x` });
      assert.notEqual(response.json()?.code, 2000, `GET ${path}?${name}=x: ${response.body}`);
    }
  }
});

test('a descriptor names the same path parameters as its route, or the path item is not built', () => {
  const config = loadConfig({ PUBLIC_URL: 'http://api.test', LOG_LEVEL: 'silent' });
  const [collection, , item] = resourceEndpoints(resources[0]!, { storage: undefined as never, config });
  assert.deepEqual(Object.keys(pathItem(item!, 2, resources)), ['/dogs/{id}']);
  const misplaced: Endpoint = { ...collection!, path: `${collection!.path}/:id` };
  assert.throws(() => pathItem(misplaced, 2, resources), /GET \/dogs\/:id describes the path parameters none/);
});
