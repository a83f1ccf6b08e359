// The real process refuses to start on rates it cannot read: one clear line on stderr, exit 1, no database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { eventually, request, spawnService, startService, tempDataDir, authorize } from './process-helper.js';

test('starting with a RATES_FILE that is not ECB XML prints one clear line and exits 1 before creating the database', async (t) => {
  const dir = tempDataDir(t);
  const ratesFile = path.join(dir, 'rates.xml');
  fs.writeFileSync(ratesFile, 'USD,1.0163\nJPY,138.05\n');
  const dataDir = path.join(dir, 'untouched');
  const service = spawnService(t, { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, RATES_FILE: ratesFile });
  await eventually('the process exiting', async () => service.child.exitCode !== null);
  assert.equal(service.child.exitCode, 1);
  const stderr = service.stderr();
  assert.match(
    stderr,
    new RegExp(
      `^The service could not start: RATES_FILE ${ratesFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not in the ECB euro reference rates format .*: it is not well-formed XML`,
    ),
  );
  assert.equal(stderr.trim().split('\n').length, 1, `one line, no stack trace: ${stderr}`);
  assert.equal(fs.existsSync(dataDir), false, 'no database was created');
});

test('the started process converts with the bundled ECB rates', async (t) => {
  const service = await startService(t, tempDataDir(t), { LOG_LEVEL: 'warn' });
  const response = await request(service, {
    path: '/v2/convert?from=EUR&to=USD&amount=100',
    headers: await authorize(service),
  });
  assert.equal(response.status, 200);
  assert.equal(JSON.parse(response.body).conversion.rateDate, '2022-07-08');
});
