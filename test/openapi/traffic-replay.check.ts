// The whole suite's recorded traffic replayed against the v1 and v2 documents: 0 mismatches (issue 15).
//
// Run by scripts/test.sh after the SQLite run, with RECORD_TRAFFIC naming the directory that run recorded into; the
// name (.check.ts) keeps it out of the runs' own file lists, which would read a half-written record.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { buildDocument } from '../../src/openapi/build-document.js';
import { BASE } from '../helper.js';
import type { Json } from './document-helper.js';
import { checkTraffic, describeMismatches, operationKeys, readTraffic } from './traffic-check.js';

// Below what the suite sends (about 1,700 API exchanges checked): a record that lost much of the traffic fails.
const MINIMUM_CHECKED = 1000;

const directory = process.env.RECORD_TRAFFIC;
const config = loadConfig({ PUBLIC_URL: BASE, LOG_LEVEL: 'silent' });
const documents = new Map<number, Json>([1, 2].map((version) => [version, buildDocument(config, version as 1 | 2)]));

test('the suite recorded its traffic', () => {
  assert.ok(directory, 'RECORD_TRAFFIC names no directory: run this file through npm test');
});

test('every recorded API exchange matches the OpenAPI document of its version', (t) => {
  assert.ok(directory);
  const report = checkTraffic(documents, readTraffic(directory));
  const excluded = [...report.excluded].map(([reason, count]) => `${count} ${reason}`).join('; ');
  t.diagnostic(`${report.checked} exchanges checked; left out: ${excluded}`);
  assert.ok(report.checked >= MINIMUM_CHECKED, `only ${report.checked} exchanges checked`);
  assert.equal(report.mismatches.size, 0, `mismatches by kind:\n${describeMismatches(report)}`);
  const missed = operationKeys(documents).filter((key) => !report.exercised.has(key));
  assert.deepEqual(missed, [], 'operations of the documents that no test exercised');
});
