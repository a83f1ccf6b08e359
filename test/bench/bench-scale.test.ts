// The bench's conclusions (bench/scale.ts) and its scaling chart and table (bench/curve.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import { scaleChart, scaleTable } from '../../bench/curve.js';
import { INDEXED, benchOperations } from '../../bench/harness.js';
import { postgresTarget, scalingVerdicts, type Result } from '../../bench/scale.js';

function result(operation: string, backend: string, size: number, ratio: number): Result {
  return { operation, backend, size, ratio, requestsPerSecond: ratio * 20_000, p99: 5 };
}

test('an indexed operation passes while it keeps two thirds of its ratio from the smallest size to the largest', () => {
  const results = [
    result('GET one', 'SQLite', 10_000, 0.6),
    result('GET one', 'SQLite', 1_000_000, 0.4),
    result('GET one', 'SQLite', 100_000, 0.1), // the sizes between do not count
    result('search', 'SQLite', 10_000, 0.3),
    result('search', 'SQLite', 1_000_000, 0.19),
    result('GET one', 'PostgreSQL', 10_000, 0.3),
    result('GET one', 'PostgreSQL', 1_000_000, 0.35),
    result('POST', 'SQLite', 10_000, 0.3),
    result('POST', 'SQLite', 1_000_000, 0.01),
  ];
  const verdicts = scalingVerdicts(results, new Set(['GET one', 'search']));
  assert.deepEqual(
    verdicts.map(({ operation, backend, pass }) => [operation, backend, pass]),
    [
      ['GET one', 'SQLite', true],
      ['search', 'SQLite', false],
      ['GET one', 'PostgreSQL', true],
    ],
  );
  assert.ok(Math.abs(verdicts[0]!.kept - 0.4 / 0.6) < 1e-9);
});

test('one size alone gives no verdict', () => {
  assert.deepEqual(scalingVerdicts([result('GET one', 'SQLite', 10_000, 0.6)], new Set(['GET one'])), []);
});

test("issue 18's targets: reads 0.4 of SQLite, POST 0.35, nothing for the token endpoint or the request log's cost", () => {
  assert.equal(postgresTarget({ method: 'GET', name: 'GET list (limit 10)' }), 0.4);
  assert.equal(postgresTarget({ method: 'POST', name: 'POST' }), 0.35);
  assert.equal(postgresTarget({ method: 'POST', name: 'token endpoint' }), undefined);
  assert.equal(postgresTarget({ method: 'GET', name: 'GET one, request log on / off', against: 'log off' }), undefined);
});

const CURVE = [
  result('GET one', 'SQLite', 10_000, 0.7),
  result('GET one', 'SQLite', 100_000, 0.65),
  result('GET one', 'PostgreSQL', 10_000, 0.3),
  result('GET one', 'PostgreSQL', 100_000, 0.28),
  result('search <q>', 'SQLite', 10_000, 0.2),
  result('search <q>', 'SQLite', 100_000, 0.004),
];

test('the chart is valid SVG with a point per operation, backend and size, and a dashed line for the second backend', () => {
  const svg = scaleChart(CURVE);
  assert.equal(XMLValidator.validate(svg), true);
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.equal(svg.match(/<circle /g)?.length, CURVE.length);
  for (const { operation, backend, size, ratio } of CURVE) {
    const title = `${operation.replace('<', '&lt;').replace('>', '&gt;')}, ${backend}, ${size} dogs: ${ratio.toFixed(3)}`;
    assert.ok(svg.includes(`<title>${title}</title>`), title);
  }
  assert.equal(svg.match(/<polyline /g)?.length, 3);
  assert.equal(svg.match(/stroke-dasharray/g)?.length, 1);
  // Log x axis: 10,000 at the left edge of the plot, 100,000 at its right edge.
  assert.match(svg, /<circle cx="50\.0" /);
  assert.match(svg, /<circle cx="570\.0" /);
});

test('one size alone is drawn in the middle of the axis', () => {
  const svg = scaleChart([result('GET one', 'SQLite', 10_000, 0.7)]);
  assert.equal(XMLValidator.validate(svg), true);
  assert.match(svg, /<circle cx="310\.0" /);
});

test('the table has a row per operation, a column per backend and size', () => {
  assert.equal(
    scaleTable(CURVE),
    [
      '| operation | SQLite, 10,000 | SQLite, 100,000 | PostgreSQL, 10,000 | PostgreSQL, 100,000 |',
      '|---|---:|---:|---:|---:|',
      '| GET one | 0.70 | 0.65 | 0.30 | 0.28 |',
      '| search <q> | 0.20 | 0.0040 |  |  |',
    ].join('\n'),
  );
});

test('every operation the scaling check names is a bench operation', () => {
  const names = new Set(
    benchOperations({ dogId: 'd', ownerId: 'o' }, { bearer: 'Bearer t', basic: 'Basic b' }).map((op) => op.name),
  );
  for (const name of INDEXED) assert.ok(names.has(name), name);
});
