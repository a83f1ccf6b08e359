// The decimal arithmetic of /convert: amounts as text, one exact half-even rounding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors.js';
import { canonical, divideRounded, Money, parseAmount } from '../../src/conversion/money.js';

const CANONICAL: ReadonlyArray<[string, string]> = [
  ['100', '100'],
  ['100.50', '100.5'],
  ['0.0', '0'],
  ['0', '0'],
  ['007.250', '7.25'],
  ['0.000001', '0.000001'],
  ['999999999999999.999999', '999999999999999.999999'],
  ['000000000000000000001', '1'],
  ['1.0000000', '1'],
  // Zero with a minus sign is still zero (a decimal ≥ 0, SPEC §6): read, and echoed, without the sign.
  ['-0', '0'],
  ['-0.00', '0'],
  ['-000.0000000', '0'],
];

test('an amount is read exactly and echoed in canonical form', () => {
  for (const [raw, expected] of CANONICAL) assert.equal(canonical(parseAmount(raw)), expected, raw);
});

const REFUSED: ReadonlyArray<[string, RegExp]> = [
  ['-1', /is negative/],
  ['-0.5', /is negative/],
  ['-0.000001', /is negative/],
  ['-10', /is negative/],
  ['--0', /is negative/],
  ['-0.', /is negative/],
  [`-${'0'.repeat(40)}`, /41 characters long/],
  ['+5', /not written that way/],
  ['1e3', /not written that way/],
  ['1E-2', /not written that way/],
  ['1,5', /not written that way/],
  ['1 000', /not written that way/],
  [' 5', /not written that way/],
  ['.5', /not written that way/],
  ['5.', /not written that way/],
  ['abc', /not written that way/],
  ['0x10', /not written that way/],
  ['Infinity', /not written that way/],
  ['NaN', /not written that way/],
  ['１２', /not written that way/],
  ['1000000000000000', /16 digits before the point/],
  ['0.0000001', /7 digits after the point/],
  ['1.1234567', /7 digits after the point/],
  ['9'.repeat(41), /41 characters long/],
];

test('an amount that is negative, malformed or has too many digits is refused with what is accepted', () => {
  for (const [raw, why] of REFUSED) {
    assert.throws(
      () => parseAmount(raw),
      (error: unknown) => {
        assert.ok(error instanceof ApiError, raw);
        assert.equal(error.code, 6001, raw);
        assert.equal(error.status, 400, raw);
        assert.match(error.message, why, raw);
        assert.match(error.message, /at most 15 digits before the point and 6 after it/, raw);
        return true;
      },
    );
  }
});

const m = (text: string) => new Money(text);

const DIVISIONS: ReadonlyArray<[string, string, number, string]> = [
  // Exact quotients with a 5 just past the last place: ties, which go to the even neighbour.
  ['2.5', '1', 0, '2'],
  ['3.5', '1', 0, '4'],
  ['0.0000005', '1', 6, '0'],
  ['0.0000015', '1', 6, '0.000002'],
  ['1380.5', '1', 0, '1380'],
  ['40.245', '1', 2, '40.24'],
  ['120.735', '1', 2, '120.74'],
  ['-2.5', '1', 0, '-2'],
  ['-3.5', '1', 0, '-4'],
  ['3.5', '-1', 0, '-4'],
  ['-0.7', '1', 0, '-1'],
  // Not ties: whatever the digits past the place, the nearest neighbour.
  ['2.5000000000000000000000000000001', '1', 0, '3'],
  ['1', '3', 6, '0.333333'],
  ['2', '3', 6, '0.666667'],
  ['1', '1.0163', 6, '0.983961'],
  ['100', '1.0163', 2, '98.4'],
  ['0', '138.05', 0, '0'],
  // A quotient that is a tie only after many digits is still found exactly.
  ['1.0000000000000000000000000000005', '1', 30, '1'],
  ['1.0000000000000000000000000000015', '1', 30, '1.000000000000000000000000000002'],
];

test('a division is rounded once, half-even, exactly at the given places', () => {
  for (const [numerator, denominator, places, expected] of DIVISIONS) {
    assert.equal(
      canonical(divideRounded(m(numerator), m(denominator), places)),
      expected,
      `${numerator} / ${denominator} at ${places}`,
    );
  }
});
