// The API reference pages over HTTP (SPEC §12): HTML rendered on the server from the very OpenAPI document the portal
// serves, every operation in it, everything escaped, under the portal's strict CSP; the browser side is
// test/browser/reference.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { buildDocument, servedDocument } from '../../src/openapi/build-document.js';
import { escapeHtml } from '../../src/portal/html.js';
import { referenceBody } from '../../src/portal/reference-page.js';
import type { JsonObject } from '../../src/openapi/json-schema.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { BASE, build, type TestApp } from '../helper.js';

const POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'";
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

async function pageAndDocument(api: TestApp, url: string, version: number) {
  const page = await api.request({ url, token: null, headers: { accept: 'text/html' } });
  const document = await api.request({ url: `/portal/openapi/v${version}.json`, token: null });
  return { page, document: JSON.parse(document.body) as JsonObject };
}

/** Each section of the page that shows operations, by the ids of the operations it shows (data-operations). */
function sectionsByOperation(html: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const match of html.matchAll(/<section [^>]*data-operations="([^"]*)"[^>]*>/g)) {
    const section = html.slice(match.index, html.indexOf('</section>', match.index));
    for (const id of match[1]!.split(' ')) sections.set(id, section);
  }
  return sections;
}

const resolve = (document: JsonObject, value: unknown): JsonObject => {
  const target = (value as JsonObject).$ref;
  if (typeof target !== 'string') return value as JsonObject;
  return target
    .slice(2)
    .split('/')
    .reduce<unknown>((node, step) => (node as JsonObject)[step], document) as JsonObject;
};

test('each version shows every operation of its OpenAPI document, with its parameters, body, answers and example', async (t) => {
  const api = await build(t);
  for (const [url, version] of [
    ['/portal/reference', 2],
    ['/portal/reference/v2', 2],
    ['/portal/reference/v1', 1],
  ] as const) {
    const { page, document } = await pageAndDocument(api, url, version);
    assert.equal(page.statusCode, 200, url);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8', url);
    const sections = sectionsByOperation(page.body);
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths as Record<string, JsonObject>)) {
      for (const method of METHODS.filter((key) => key in item)) {
        const operation = item[method] as JsonObject;
        const id = String(operation.operationId);
        const where = `${url}: ${method.toUpperCase()} ${path} (${id})`;
        const section = sections.get(id);
        assert.ok(section, `${where} is on the page`);
        assert.ok(page.body.includes(`id="${escapeHtml(id)}"`), `${where} has an anchor`);
        assert.ok(section.includes(escapeHtml(path)), `${where}: its path`);
        assert.ok(section.includes(`>${method.toUpperCase()}`), `${where}: its method`);
        assert.ok(section.includes(escapeHtml(String(operation.summary))), `${where}: its summary`);
        const parameters = [...((item.parameters as unknown[]) ?? []), ...((operation.parameters as unknown[]) ?? [])];
        for (const parameter of parameters.map((given) => resolve(document, given)))
          assert.ok(
            section.includes(`<code class="name">${escapeHtml(String(parameter.name))}</code>`),
            `${where}: ${parameter.name}`,
          );
        for (const status of Object.keys(operation.responses as JsonObject))
          assert.ok(
            section.includes(`<span class="status s${status[0]}">${status}</span>`),
            `${where}: answer ${status}`,
          );
        if (operation.requestBody) {
          const body = resolve(document, operation.requestBody);
          for (const type of Object.keys(body.content as JsonObject))
            assert.ok(section.includes(`<code>${escapeHtml(type)}</code>`), `${where}: body as ${type}`);
          const schema = resolve(document, (Object.values(body.content as JsonObject)[0] as JsonObject).schema);
          for (const field of Object.keys(schema.properties as JsonObject))
            assert.ok(section.includes(`<code class="name">${field}</code>`), `${where}: body field ${field}`);
        }
        if (method !== 'options') assert.match(section, /<h4>Example<\/h4>[\s\S]*curl/, `${where}: an example`);
        checked++;
      }
    }
    assert.ok(checked > 100, `${url}: ${checked} operations`);
    t.diagnostic(`${url}: ${checked} operations checked`);
    // A table of contents, the versions linked to each other and to the JSON documents.
    assert.match(page.body, /<nav class="ref-toc" aria-label="Operations of v\d">/);
    for (const link of [
      '/portal/reference/v1',
      '/portal/reference/v2',
      '/portal/openapi/v1.json',
      '/portal/openapi/v2.json',
    ])
      assert.ok(page.body.includes(`href="${link}"`), `${url} links ${link}`);
  }
});

test('the reference pages carry the strict CSP, no inline script or style, and their script as a file', async (t) => {
  const api = await build(t);
  for (const url of ['/portal/reference', '/portal/reference/v1']) {
    const response = await api.request({ url, token: null });
    assert.equal(response.headers['content-security-policy'], POLICY, url);
    assert.equal(response.headers['x-content-type-options'], 'nosniff', url);
    assert.equal(response.headers['referrer-policy'], 'strict-origin-when-cross-origin', url);
    const scripts = response.body.match(/<script[^>]*>/g) ?? [];
    assert.deepEqual(
      scripts.map((tag) => tag.replace(/\?v=\w+/, '')),
      ['<script src="/portal/assets/reference.js" defer>'],
    );
    assert.doesNotMatch(response.body, /\sstyle=|<style|\son\w+=/i, `${url}: no inline style or handler`);
    assert.doesNotMatch(response.body, /swagger/i, url);
  }
});

test('the reference routes: 200 and HEAD for each version, the portal 404 for another, 400 with Allow for POST', async (t) => {
  const api = await build(t);
  const head = await api.request({ method: 'HEAD', url: '/portal/reference/v2', token: null });
  assert.equal(head.statusCode, 200);
  assert.equal(head.body, '');
  for (const url of ['/portal/reference/v3', '/portal/reference/v0', '/portal/reference/v2/dogs']) {
    const unknown = await api.request({ url, token: null });
    assert.equal(unknown.statusCode, 404, url);
    assert.equal(unknown.headers['content-type'], 'text/html; charset=utf-8', url);
  }
  for (const method of ['POST', 'PUT', 'DELETE'] as const) {
    const wrong = await api.request({ method, url: '/portal/reference', token: null });
    assert.equal(wrong.statusCode, 400, method);
    assert.equal(wrong.headers.allow, 'GET, HEAD', method);
  }
  // Swagger UI is gone.
  const bundle = await api.request({ url: '/portal/assets/swagger-ui/swagger-ui-bundle.js', token: null });
  assert.equal(bundle.statusCode, 404);
});

test('the script and stylesheet are served from the portal, cacheable and revalidated with their ETag', async (t) => {
  const api = await build(t);
  const page = await api.request({ url: '/portal/reference', token: null });
  for (const [name, type, text] of [
    ['js', 'text/javascript; charset=utf-8', 'fetch(target, init)'],
    ['css', 'text/css; charset=utf-8', '.try-form'],
  ] as const) {
    const link = new RegExp(`"(/portal/assets/reference\\.${name}\\?v=\\w+)"`).exec(page.body)?.[1];
    assert.ok(link, `the page links reference.${name}`);
    const response = await api.request({ url: link, token: null });
    assert.equal(response.statusCode, 200, link);
    assert.equal(response.headers['content-type'], type, link);
    assert.equal(response.headers['cache-control'], 'public, max-age=86400', link);
    assert.ok(response.body.includes(text), link);
    const again = await api.request({
      url: link,
      token: null,
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    assert.equal(again.statusCode, 304, link);
  }
});

test('a portal on a host of its own lets "try it" call and send forms to {base}, and nothing else', async (t) => {
  const api = await build(t, { PORTAL_URL: 'https://developer.example.com' });
  const response = await api.request({ url: '/reference', token: null, headers: { host: 'developer.example.com' } });
  assert.equal(response.statusCode, 200);
  const policy = String(response.headers['content-security-policy']);
  assert.match(policy, /; connect-src 'self' http:\/\/api\.test;/);
  assert.match(policy, /; form-action 'self' http:\/\/api\.test;/);
  assert.ok(response.body.includes('action="http://api.test/v2/dogs.json"'));
});

test('a GET without path parameters is a plain form without JavaScript: required parameters and the token by name', async (t) => {
  const api = await build(t);
  const { body } = await api.request({ url: '/portal/reference', token: null });
  const form = (id: string) => {
    const section = sectionsByOperation(body).get(id)!;
    return section.slice(section.indexOf('<form'), section.indexOf('</form>'));
  };
  const search = form('search');
  assert.match(search, /action="http:\/\/api\.test\/v2\/search\.json"/);
  assert.deepEqual(
    [...search.matchAll(/ name="([^"]+)"/g)].map((match) => match[1]),
    ['q', 'access_token'],
  );
  assert.match(search, /<button type="submit">Send GET<\/button>/);
  // A path parameter needs the script: the button waits for it.
  assert.match(form('getDog'), /<button type="submit" disabled>Send GET<\/button>/);
  assert.doesNotMatch(form('getDog'), / name="/);
  // The open operation asks for no token.
  assert.doesNotMatch(form('listAdoptableDogs'), /access_token/);
});

test('every text of the document is escaped, and an example the document gives is the one shown', async () => {
  const evil = '<script>alert("x")</script>';
  const document: JsonObject = {
    openapi: '3.1.1',
    info: { title: evil, summary: evil, description: `${evil}\n\n- \`${evil}\`` },
    servers: [{ url: `http://api.test/v2` }],
    tags: [{ name: 'things', description: evil }],
    paths: {
      '/things/{id}': {
        post: {
          operationId: `make"${evil}`,
          summary: evil,
          description: evil,
          tags: ['things'],
          parameters: [
            {
              name: `id${evil}`,
              in: 'path',
              required: true,
              description: evil,
              schema: { type: 'string', enum: [evil] },
            },
          ],
          requestBody: {
            content: {
              'application/json': {
                schema: { type: 'object', properties: { [evil]: { type: 'string', pattern: evil } } },
                example: { given: evil },
              },
            },
          },
          responses: {
            '200': {
              description: evil,
              headers: { [evil]: { description: evil, schema: { type: 'string' } } },
              content: { 'application/json': { schema: { type: 'object' }, example: { answered: 'yes' } } },
            },
          },
        },
      },
    },
  };
  const html = referenceBody(document, 2, '/portal');
  assert.doesNotMatch(html, /<script>alert/);
  assert.ok(html.includes(escapeHtml(evil)));
  assert.equal(html.match(/<script/g)?.length, 1, 'only the page script');
  // The document's examples, not made-up ones.
  assert.ok(html.includes(escapeHtml(`-d '{"given":"${evil.replace(/"/g, '\\"')}"}'`)));
  assert.ok(html.includes(escapeHtml('"answered": "yes"')));
});

test("an operation's example is its own success: a list's 200 with a page, a creation's 201 with the new item", async (t) => {
  const api = await build(t);
  const { body } = await api.request({ url: '/portal/reference/v2', token: null });
  const sections = sectionsByOperation(body);
  const example = (id: string) => /<h4>Example<\/h4>[\s\S]*?<\/div>/.exec(sections.get(id)!)![0];
  assert.match(
    example('listDogs'),
    /HTTP\/1\.1 200 OK\nContent-Type: application\/json\n\n\{\n {2}&quot;dogs&quot;: \[/,
  );
  assert.match(example('createDog'), /HTTP\/1\.1 201 Created[\s\S]*&quot;dog&quot;: \{/);
  assert.match(example('createDog'), /-d &#39;\{&quot;name&quot;:&quot;Rex&quot;/);
});

test('/openapi/v<N>.json and the reference page draw on one document per version, and the JSON is what a build gives', async (t) => {
  const config = loadConfig({ PUBLIC_URL: BASE, LOG_LEVEL: 'silent' });
  // v2's document, built before the app and marked: the app must take this one for both views, not build its own.
  const held = servedDocument(config, 2);
  (held.info as JsonObject).summary = 'Drawn from the one document.';
  const storage = new SqliteStorage(':memory:');
  await storage.migrate();
  const app = await buildApp(config, { storage, logger: false });
  t.after(() => app.close());
  const json = await app.inject({ url: '/portal/openapi/v2.json' });
  assert.equal(json.statusCode, 200);
  assert.equal(json.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(json.body, JSON.stringify(held));
  assert.equal(JSON.parse(json.body).info.summary, 'Drawn from the one document.');
  const page = await app.inject({ url: '/portal/reference/v2' });
  assert.equal(page.statusCode, 200);
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.ok(page.body.includes('<p class="lead">Drawn from the one document.</p>'));
  // Unmarked, the bytes served are exactly a fresh build's.
  const v1 = await app.inject({ url: '/portal/openapi/v1.json' });
  assert.equal(v1.body, JSON.stringify(buildDocument(config, 1)));
  assert.equal(servedDocument(config, 1), servedDocument(config, 1));
});

test('every schema of the document is described once with its fields, and every type name on the page links to it', async (t) => {
  const api = await build(t);
  for (const version of [1, 2] as const) {
    const { page, document } = await pageAndDocument(api, `/portal/reference/v${version}`, version);
    assert.equal(page.statusCode, 200);
    const schemas = (document.components as JsonObject).schemas as Record<string, JsonObject>;
    assert.ok(Object.keys(schemas).length > 20, 'the document names its schemas');
    assert.match(page.body, /<a class="toc-tag" href="#schemas">Schemas<\/a>/);
    for (const [name, schema] of Object.entries(schemas)) {
      const marker = `<div class="op schema" id="schema-${name}">`;
      const start = page.body.indexOf(marker);
      assert.ok(start >= 0, `v${version}: ${name} is described`);
      assert.equal(page.body.indexOf(`id="schema-${name}"`, start + marker.length), -1, `v${version}: ${name} once`);
      const block = page.body.slice(start, page.body.indexOf('</div>\n<div class="op schema"', start) >>> 0);
      const parts = [
        schema,
        ...((schema.allOf as JsonObject[] | undefined) ?? []).map((part) => resolve(document, part)),
      ];
      const fields = parts.flatMap((part) => Object.keys((part.properties as JsonObject | undefined) ?? {}));
      for (const field of fields)
        assert.ok(block.includes(`<td data-label="Field"><code class="name">${field}</code>`), `${name}.${field}`);
      if (fields.length === 0) assert.match(block, /<p>Type: <code class="type">/, name);
    }
    // Every link to a schema, in a body, an answer or a field's type, has its description on the page.
    const links = [...page.body.matchAll(/href="#schema-([A-Za-z]+)"/g)].map((match) => match[1]!);
    assert.ok(links.includes('DogEnvelope') && links.includes('NewDog') && links.includes('Error'), 'names link');
    for (const name of new Set(links)) assert.ok(name in schemas, `#schema-${name} has a target`);
  }
});
