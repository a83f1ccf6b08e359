// Carries out docs/architecture.md "Adding a resource" on a throwaway resource, in a copy of the project.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT as ROOT } from '../repo-root.js';

const run = promisify(execFile);

interface Step {
  readonly info: Record<string, string>;
  readonly code: string;
}

/** The ```ts blocks of the section, each with its tag (`new-file=…`, `add-to=… in=…`) and its code, unindented. */
function documentedSteps(): Step[] {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const start = doc.indexOf('## Adding a resource');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  const steps: Step[] = [];
  for (const [, tag, body] of section.matchAll(/^[ \t]*```ts[ \t]+([^\n]+)\n([\s\S]*?)\n[ \t]*```/gm)) {
    const info = Object.fromEntries(
      tag!
        .trim()
        .split(/\s+/)
        .map((pair) => {
          const [key, value = ''] = pair.split('=');
          return [key!, value];
        }),
    );
    const lines = body!.split('\n');
    const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length));
    steps.push({ info, code: lines.map((line) => line.slice(indent)).join('\n') });
  }
  return steps;
}

/** Applies one documented step to the copy at `dir`, as a developer following the text would. */
function apply(dir: string, { info, code }: Step): void {
  const file = path.join(dir, info['new-file'] ?? info.in ?? '');
  if (info['new-file']) return fs.writeFileSync(file, `${code}\n`);
  let text = fs.readFileSync(file, 'utf8');
  if (info['declare-before']) {
    // Before the list's declaration, and before the doc comment that opens it.
    let at = text.indexOf(`export const ${info['declare-before']}`);
    const comment = text.lastIndexOf('/**', at);
    if (comment >= 0 && text.slice(text.indexOf('*/', comment) + 2, at).trim() === '') at = comment;
    text = `${text.slice(0, at)}${code}\n\n${text.slice(at)}`;
  } else if (info['add-to']) {
    const list = new RegExp(`(export const ${info['add-to']}\\b[^=]*=\\s*\\[)([^\\]]*)\\]`);
    assert.match(text, list, `${info.in} has the list ${info['add-to']}`);
    text = text.replace(list, (_all, head: string, items: string) => `${head}${items.trimEnd()}, ${code.trim()}]`);
  } else if ('import' in info) {
    const lastImport = [...text.matchAll(/^import .*;$/gm)].at(-1)!;
    const at = lastImport.index + lastImport[0].length;
    text = `${text.slice(0, at)}\n${code.trim()}${text.slice(at)}`;
  } else if ('migration' in info) {
    // The next version after the file's last one, whatever other migrations were added meanwhile.
    const next = Math.max(...[...text.matchAll(/version: (\d+)/g)].map((match) => Number(match[1]))) + 1;
    const entry = code
      .replace(/version: \d+/, `version: ${next}`)
      .split('\n')
      .map((line) => (line ? `  ${line}` : line))
      .join('\n');
    const end = text.lastIndexOf('\n];');
    text = `${text.slice(0, end)}\n${entry},${text.slice(end)}`;
  } else {
    assert.fail(`a documented step this test does not know: ${JSON.stringify(info)}`);
  }
  fs.writeFileSync(file, text);
}

test('the documented steps add a working resource: schema on both backends, the API and its OpenAPI description', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'add-resource-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const entry of ['src', 'test', 'rates', 'package.json', 'tsconfig.json'])
    fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');

  const steps = documentedSteps();
  assert.deepEqual(
    steps.map((step) => Object.keys(step.info)[0]),
    ['new-file', 'declare-before', 'add-to', 'import', 'add-to', 'migration', 'migration'],
  );
  for (const step of steps) apply(dir, step);

  // The new definition and the edited files type-check as written in the docs.
  await run(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json', '--noEmit'], { cwd: dir });
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/resources/new-resource-check.ts'], {
    cwd: dir,
    env: process.env,
  });
  assert.match(stdout, /toys on sqlite: schema, create, list, read, update, delete and OpenAPI ok/);
  if (process.env.TEST_DATABASE_URL) assert.match(stdout, /toys on postgres: .* ok/);
});
