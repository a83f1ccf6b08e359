// The bench's command lines (bench/args.ts): --postgres, --statements, --scale and operation names; bench:compare's ref first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseArgs, parseCompareArgs } from '../../bench/args.js';

test('no arguments: SQLite only, one size, every operation', () => {
  assert.deepEqual(parseArgs([]), { postgres: false, statements: false, sizes: undefined, operations: [] });
});

test('--postgres and operation names, in any order', () => {
  assert.deepEqual(parseArgs(['GET one (authorized)', '--postgres', 'POST']), {
    postgres: true,
    statements: false,
    sizes: undefined,
    operations: ['GET one (authorized)', 'POST'],
  });
});

test('--scale takes a comma-separated list, as the next argument or after =, sorted and each size once', () => {
  assert.deepEqual(parseArgs(['--scale', '1000000,10000,100_000,10000']).sizes, [10_000, 100_000, 1_000_000]);
  assert.deepEqual(parseArgs(['--scale=50000', '--postgres']), {
    postgres: true,
    statements: false,
    sizes: [50_000],
    operations: [],
  });
});

test('--statements measures PostgreSQL, so it brings --postgres with it', () => {
  assert.deepEqual(parseArgs(['--statements', 'POST']), {
    postgres: true,
    statements: true,
    sizes: undefined,
    operations: ['POST'],
  });
});

test('--scale without sizes, or with a size that is not a whole number of at least 10 dogs, is refused', () => {
  assert.throws(() => parseArgs(['--scale']), /--scale needs a list of sizes/);
  for (const bad of ['10k', '10000,', '5', '1e3.5', '-100', '10000,,20000'])
    assert.throws(() => parseArgs(['--scale', bad]), /--scale takes whole numbers of dogs/, bad);
});

test('an unknown option is refused with the usage', () => {
  assert.throws(() => parseArgs(['--postgress']), /unknown option --postgress\nusage: npm run bench/);
});

test('bench:compare takes the ref first, then --postgres and operation names in any order', () => {
  assert.deepEqual(parseCompareArgs(['HEAD~1']), { ref: 'HEAD~1', postgres: false, operations: [] });
  assert.deepEqual(parseCompareArgs(['main', 'GET one (authorized)', '--postgres', 'POST']), {
    ref: 'main',
    postgres: true,
    operations: ['GET one (authorized)', 'POST'],
  });
});

test('bench:compare without a ref, with --scale or with an unknown option is refused with its own usage', () => {
  assert.throws(() => parseCompareArgs([]), /name the commit to compare with\nusage: npm run bench:compare/);
  assert.throws(
    () => parseCompareArgs(['--postgres']),
    /name the commit to compare with\nusage: npm run bench:compare/,
  );
  assert.throws(
    () => parseCompareArgs(['HEAD', '--scale', '10000']),
    /bench:compare measures one size \(BENCH_DOGS\); --scale is npm run bench's\nusage: npm run bench:compare/,
  );
  assert.throws(
    () => parseCompareArgs(['HEAD', '--statements']),
    /--statements is npm run bench's \(with --postgres\)\nusage: npm run bench:compare/,
  );
  assert.throws(
    () => parseCompareArgs(['HEAD', '--postgress']),
    /^Error: unknown option --postgress\nusage: npm run bench:compare/,
  );
});
