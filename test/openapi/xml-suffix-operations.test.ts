// Every GET and POST the documents describe on a .xml path answers a real item in XML: the suffix paths are no
// paper promise (and the traffic replay sees each of them answered).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertWellFormedXml, build, createItem } from '../helper.js';
import { fetchDocument, type Json } from './document-helper.js';

// The parameters a path needs before it answers 200: a search its q, a conversion its three.
const QUERY: Array<[RegExp, string]> = [
  [/search\.xml$/, '?q=rex'],
  [/^\/convert\.xml$/, '?from=EUR&to=USD&amount=100'],
];

function urlOf(path: string, version: number, ids: Record<string, string>): string {
  const collection = path.split('/')[1]!.replace(/\.xml$/, '');
  const query = QUERY.find(([pattern]) => pattern.test(path))?.[1] ?? '';
  return `/v${version}${path.replace('{id}', ids[collection] ?? 'none')}${query}`;
}

test('every documented GET and POST of a .xml path answers an existing item with 200 or 201 in XML', async (t) => {
  const api = await build(t);
  const ids: Record<string, string> = {};
  for (const resource of ['owners', 'veterinarians', 'foods', 'dogs'])
    ids[resource] = (await createItem(api, resource, { name: 'Rex' })).id!;
  for (const version of [1, 2]) {
    const document = await fetchDocument(api, version);
    const xmlPaths = Object.entries<Json>(document.paths).filter(([path]) => path.endsWith('.xml'));
    assert.ok(xmlPaths.length > 20, `v${version} has its .xml paths`);
    // GETs first: a POST may carry out a DELETE.
    const requests = [
      ...xmlPaths.filter(([, item]) => item.get).map(([path]) => ({ method: 'GET', path, override: undefined })),
      ...xmlPaths
        .filter(([, item]) => item.post)
        .map(([path, item]) => {
          const carrier = String(item.post.operationId).startsWith('override');
          return { method: 'POST', path, override: carrier ? (item.put ? 'PUT' : 'DELETE') : undefined };
        }),
    ];
    for (const { method, path, override } of requests) {
      const url = urlOf(path, version, ids);
      const response = await api.request({
        method,
        url,
        ...(method === 'POST' ? { json: { name: 'Rex' } } : {}),
        ...(override ? { headers: { 'x-http-method-override': override } } : {}),
      });
      const what = `${method}${override ? ` (${override})` : ''} ${url}`;
      assert.ok([200, 201].includes(response.statusCode), `${what} answered ${response.statusCode}: ${response.body}`);
      assert.match(String(response.headers['content-type']), /^application\/xml/, what);
      assert.match(response.body, /^<\?xml /, what);
      assertWellFormedXml(response);
    }
  }
});
