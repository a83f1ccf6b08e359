// The bench's CPU readings from /proc (bench/harness.ts cpuMicros): a process's own time, and with `children` the time
// of the children it forked, running or already waited for (PostgreSQL's postmaster and its backends).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuMicros } from '../../bench/harness.js';

/** A Node process that spins for `ms` milliseconds of its own CPU, then exits (or waits, with `stay`). */
const SPIN = (ms: number, stay = false): string[] => [
  '-e',
  `const end = process.cpuUsage().user + ${ms * 1000}; while (process.cpuUsage().user < end); ${stay ? 'setInterval(() => {}, 1000); console.log("spun")' : ''}`,
];

test("a process's own CPU grows by what it spends", () => {
  const before = cpuMicros(process.pid);
  const end = process.cpuUsage().user + 300_000;
  while (process.cpuUsage().user < end);
  const spent = cpuMicros(process.pid) - before;
  assert.ok(spent >= 250_000, `${spent} µs`);
});

test('with children: a child waited for counts, and so does one still running', async () => {
  const ownBefore = cpuMicros(process.pid);
  const allBefore = cpuMicros(process.pid, { children: true });
  assert.ok(allBefore >= ownBefore);
  spawnSync(process.execPath, SPIN(300));
  const waited = cpuMicros(process.pid, { children: true }) - allBefore - (cpuMicros(process.pid) - ownBefore);
  assert.ok(waited >= 250_000, `a child waited for: ${waited} µs`);

  const running = spawn(process.execPath, SPIN(300, true), { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    await once(running.stdout, 'data');
    const withRunning = cpuMicros(process.pid, { children: true }) - cpuMicros(process.pid);
    const withoutIt = allBefore - ownBefore + waited;
    assert.ok(withRunning - withoutIt >= 250_000, `a running child: ${withRunning - withoutIt} µs`);
  } finally {
    running.kill();
  }
});
