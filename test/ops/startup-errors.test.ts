// The real process refuses to start on a bad configuration: a clear line on stderr, a non-zero exit, nothing written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { eventually, spawnService, tempDataDir } from './process-helper.js';

const cases: Array<{ why: string; env: Record<string, string>; args?: string[]; says: RegExp[]; listening?: true }> = [
  {
    // SPEC §11 allows flags to mirror the environment; this service has none, and says so rather than ignore one.
    why: 'a command-line flag',
    env: {},
    args: ['--port', '9000'],
    says: [/^The service takes no command-line arguments, but it got "--port" "9000": it is configured by environment/],
  },
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
    // Node 20's recursive mkdir never returned for a path under /proc: the process spun without a word.
    why: 'a DATA_DIR that cannot be created',
    env: { DATA_DIR: '/proc/no-such-folder/data' },
    says: [/^The service could not start: DATA_DIR \/proc\/no-such-folder\/data cannot hold the database: ENOENT/],
  },
  {
    why: 'a HOST that is not an address or a host name',
    env: { HOST: 'not a host' },
    says: [
      /^Invalid configuration: HOST must be an IP address or host name of this machine .*, but it is "not a host"\./,
    ],
  },
  {
    why: 'a HOST that looks like an IPv4 address but is none',
    env: { HOST: '256.1.1.1' },
    says: [/^Invalid configuration: HOST must be .*, but it is "256\.1\.1\.1"\./],
  },
  {
    // 192.0.2.1 (TEST-NET-1) is no address of this machine.
    why: 'a HOST that is no address of this machine',
    env: { HOST: '192.0.2.1', PORT: '0' },
    says: [/^The service could not start: HOST 192\.0\.2\.1 cannot be listened on \(.*EADDRNOTAVAIL.*\): set HOST/],
    // Found only when the server binds, after the database opened.
    listening: true,
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

for (const { why, env, args, says, listening } of cases) {
  test(`starting with ${why} prints a clear message to stderr and exits non-zero`, async (t) => {
    const dataDir = path.join(tempDataDir(t), 'untouched');
    const service = spawnService(t, { HOST: '127.0.0.1', DATA_DIR: dataDir, ...env }, undefined, args);
    await eventually('the process exiting', async () => service.child.exitCode !== null);
    assert.equal(service.child.exitCode, 1);
    const stderr = service.stderr();
    for (const pattern of says) assert.match(stderr, pattern);
    assert.equal(stderr.trim().split('\n').length, 1, `one line, no stack trace: ${stderr}`);
    assert.deepEqual(service.stdout, []);
    if (!listening) assert.equal(fs.existsSync(dataDir), false, 'no database was created');
  });
}
