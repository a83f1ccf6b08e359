// A client generated from the v2 document (openapi-typescript + openapi-fetch, used the obvious way) compiles with
// tsc --strict and its default requests are accepted by a real listening app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { build } from '../helper.js';
import { REPO_ROOT as ROOT } from '../repo-root.js';
import { fetchDocument } from './document-helper.js';

const run = promisify(execFile);

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    outDir: 'out',
    skipLibCheck: false,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
  },
  files: ['client.ts', 'schema.d.ts'],
};

test('a generated openapi-fetch client compiles with --strict and its requests are accepted', async (t) => {
  const api = await build(t);
  const dir = await mkdtemp(join(tmpdir(), 'oadoc-client-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const document = await fetchDocument(api, 2);
  await writeFile(join(dir, 'schema.d.ts'), astToString(await openapiTS(JSON.stringify(document))));
  await copyFile(join(ROOT, 'test/openapi/client/program.ts.txt'), join(dir, 'client.ts'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');

  const compiled = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir]).catch(
    (error: { stdout?: string }) => assert.fail(`tsc --strict found errors:\n${error.stdout ?? String(error)}`),
  );
  assert.equal(compiled.stdout, '');

  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const address = api.app.server.address();
  assert.ok(address && typeof address === 'object');
  const env = { ...process.env, BASE_URL: `http://127.0.0.1:${address.port}/v2`, TOKEN: api.credentials.token };
  const { stdout } = await run(process.execPath, [join(dir, 'out/client.js')], { env });
  assert.deepEqual(JSON.parse(stdout), {
    created: [201, 'registered'],
    list: [200, ['Bella', 'Rex']],
    one: [200, 'Rex'],
    updated: [200, 'adoptable'],
    search: [200, 1],
    count: [200, 2],
    converted: [200, '101.63'],
    deleted: 200,
    gone: [404, 4000],
  });
});
