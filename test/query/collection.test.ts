import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors.js';
import {
  checkKnownParams,
  parseFilters,
  parseLimit,
  parseOffset,
  parseQ,
  parseSort,
} from '../../src/query/collection.js';
import { dogs } from '../../src/resources/dogs.js';

function errorName(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    return error.errorName;
  }
}

const limits: Array<[string | undefined, number | 'limitInvalid']> = [
  [undefined, 10],
  ['1', 1],
  ['100', 100],
  ['25', 25],
  ['0', 'limitInvalid'],
  ['101', 'limitInvalid'],
  ['-1', 'limitInvalid'],
  ['1.5', 'limitInvalid'],
  ['ten', 'limitInvalid'],
  ['', 'limitInvalid'],
  [' 5', 'limitInvalid'],
  ['1e1', 'limitInvalid'],
];
for (const [raw, expected] of limits) {
  test(`limit ${JSON.stringify(raw)} gives ${expected}`, () => {
    const params = raw === undefined ? {} : { limit: raw };
    if (typeof expected === 'number') assert.equal(parseLimit(params), expected);
    else
      assert.equal(
        errorName(() => parseLimit(params)),
        expected,
      );
  });
}

const offsets: Array<[string | undefined, number | 'offsetInvalid']> = [
  [undefined, 0],
  ['0', 0],
  ['50', 50],
  ['-1', 'offsetInvalid'],
  ['x', 'offsetInvalid'],
  ['2.0', 'offsetInvalid'],
];
for (const [raw, expected] of offsets) {
  test(`offset ${JSON.stringify(raw)} gives ${expected}`, () => {
    const params = raw === undefined ? {} : { offset: raw };
    if (typeof expected === 'number') assert.equal(parseOffset(params), expected);
    else
      assert.equal(
        errorName(() => parseOffset(params)),
        expected,
      );
  });
}

test('a repeated parameter is rejected rather than silently picking one', () => {
  assert.equal(
    errorName(() => parseLimit({ limit: ['1', '2'] })),
    'parameterRepeated',
  );
});

test('filters map parameters onto fields, lower-case their values and split lists', () => {
  assert.deepEqual(parseFilters(dogs, { color: 'Brown, BLACK', location: 'Oslo' }), [
    { field: 'furColor', values: ['brown', 'black'] },
    { field: 'location', values: ['oslo'] },
  ]);
});

test('an invalid state filter lists the states', () => {
  assert.throws(
    () => parseFilters(dogs, { state: 'sleeping' }),
    (error: ApiError) =>
      error.errorName === 'filterInvalid' && /registered, adoptable, adopted, lost/.test(error.message),
  );
  assert.deepEqual(parseFilters(dogs, { state: 'LOST,adopted' }), [
    { field: 'state', values: ['lost', 'adopted'], exact: true },
  ]);
});

test('an empty filter value is a 400 rather than matching nothing', () => {
  assert.equal(
    errorName(() => parseFilters(dogs, { color: ' , ' })),
    'filterInvalid',
  );
});

test('sort takes a field with an optional leading minus', () => {
  assert.equal(parseSort(dogs, {}), undefined);
  assert.deepEqual(parseSort(dogs, { sort: 'name' }), { field: 'name', descending: false });
  assert.deepEqual(parseSort(dogs, { sort: '-createdAt' }), { field: 'createdAt', descending: true });
  assert.throws(
    () => parseSort(dogs, { sort: 'colour' }),
    (error: ApiError) => error.errorName === 'sortInvalid' && /id, name, furColor, state, location/.test(error.message),
  );
});

test('q is 1 to 200 characters of text', () => {
  assert.equal(parseQ({ q: 'rex' }), 'rex');
  assert.equal(parseQ({ q: 'ø'.repeat(200) }), 'ø'.repeat(200));
  assert.equal(
    errorName(() => parseQ({ q: '' })),
    'searchInvalid',
  );
  assert.equal(
    errorName(() => parseQ({ q: '   ' })),
    'searchInvalid',
  );
  assert.equal(
    errorName(() => parseQ({ q: 'x'.repeat(201) })),
    'searchInvalid',
  );
});

test('an unknown parameter is named, with the accepted ones listed', () => {
  const accepted = ['limit', 'suppress_response_codes', 'access_token'];
  assert.doesNotThrow(() =>
    checkKnownParams({ limit: '1', suppress_response_codes: 'true', access_token: 'x' }, accepted),
  );
  assert.throws(
    () => checkKnownParams({ colour: 'brown' }, ['color', 'method', 'suppress_response_codes', 'access_token']),
    (error: ApiError) =>
      error.errorName === 'unknownParameter' &&
      /"colour"/.test(error.message) &&
      /Accepted parameters: color, method, suppress_response_codes, access_token\.$/.test(error.message),
  );
});

test('method passes only where accepted, or on an overridden request, which carries it to the operation it names', () => {
  const accepted = ['limit', 'suppress_response_codes', 'access_token'];
  assert.throws(
    () => checkKnownParams({ method: 'put' }, accepted),
    (error: ApiError) =>
      error.errorName === 'unknownParameter' &&
      /"method"/.test(error.message) &&
      /Accepted parameters: limit, suppress_response_codes, access_token\.$/.test(error.message),
  );
  assert.doesNotThrow(() => checkKnownParams({ method: 'put' }, accepted, true));
  assert.throws(
    () => checkKnownParams({ colour: 'x' }, accepted, true),
    (error: ApiError) => error.errorName === 'unknownParameter',
  );
});
