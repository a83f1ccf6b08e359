// The real process refuses to start on a bad configuration: a clear line on stderr, a non-zero exit, nothing written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { eventually, spawnService, tempDataDir } from './process-helper.js';

const cases: Array<{ why: string; env: Record<string, string>; says: RegExp[] }> = [
  {
    why: 'PORT=abc',
    env: { PORT: 'abc' },
    says: [/^Invalid configuration: PORT must be a whole number from 0 to 65535, but it is "abc"\./],
  },
  {
    why: 'a DATA_DIR that is a file',
    env: { DATA_DIR: '/etc/passwd' },
    says: [/^The service could not start: DATA_DIR \/etc\/passwd cannot hold the database: EEXIST/],
  },
  {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    why: 'a DATABASE_URL whose PostgreSQL cannot be reached',
    env: { PORT: '0', DATABASE_URL: 'postgres://registry:s3cret-word@127.0.0.1:1/registry' },
    says: [
      /^The service could not start: /,
      /DATABASE_URL is set/,
      /PostgreSQL database at postgres:\/\/registry:\*\*\*@127\.0\.0\.1:1\/registry/,
      /ECONNREFUSED/,
      /^(?!.*s3cret-word)/s,
    ],
  },
];

for (const { why, env, says } of cases) {
  test(`starting with ${why} prints a clear message to stderr and exits non-zero`, async (t) => {
    const dataDir = path.join(tempDataDir(t), 'untouched');
    const service = spawnService(t, { HOST: '127.0.0.1', DATA_DIR: dataDir, ...env });
    await eventually('the process exiting', async () => service.child.exitCode !== null);
    assert.equal(service.child.exitCode, 1);
    const stderr = service.stderr();
    for (const pattern of says) assert.match(stderr, pattern);
    assert.equal(stderr.trim().split('\n').length, 1, `one line, no stack trace: ${stderr}`);
    assert.deepEqual(service.stdout, []);
    assert.equal(fs.existsSync(dataDir), false, 'no database was created');
  });
}
