// Redocly CLI lints both served documents with its recommended rules (redocly.yaml): 0 errors and 0 warnings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from '../helper.js';
import { REPO_ROOT as ROOT } from '../repo-root.js';
import { fetchDocument } from './document-helper.js';

const CLI = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
/** Offline: no telemetry, no update check (CI=true also stops it), no colour codes in the report. */
const OFFLINE = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true', NO_COLOR: '1' };

interface Totals {
  errors: number;
  warnings: number;
  ignored: number;
}

test('Redocly lint finds no error and no warning in either document', async (t) => {
  const api = await build(t, { PUBLIC_URL: 'https://api.dog-registry.test' });
  const dir = await mkdtemp(join(tmpdir(), 'oadoc-lint-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  for (const version of [1, 2]) {
    const file = join(dir, `v${version}.json`);
    await writeFile(file, JSON.stringify(await fetchDocument(api, version), null, 1));
    const report = await lint(file);
    const problems = report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`);
    assert.deepEqual(problems, [], `v${version}`);
    assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 }, `v${version}`);
  }
});

/** The CLI's JSON report of one document; a failed run (exit 1 on errors) still prints it. */
async function lint(file: string): Promise<{ totals: Totals; problems: { ruleId: string; message: string }[] }> {
  const args = [CLI, 'lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'json', file];
  const env = { ...process.env, ...OFFLINE };
  const stdout = await promisify(execFile)(process.execPath, args, { env, maxBuffer: 64 * 1024 * 1024 }).then(
    (result) => result.stdout,
    (error: { stdout?: string; stderr?: string }) => {
      if (!error.stdout) assert.fail(`redocly lint did not run: ${error.stderr ?? ''}`);
      return error.stdout;
    },
  );
  return JSON.parse(stdout);
}
