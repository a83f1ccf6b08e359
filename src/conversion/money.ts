// Decimal money for /convert: amounts read from text and one exact half-even rounding; no binary floating point
// anywhere.
import { createRequire } from 'node:module';
import type * as DecimalModule from 'decimal.js';
import { ApiError } from '../errors.js';

// decimal.js's ES module build has only a default export, which TypeScript's nodenext resolution
// types as the CommonJS module object; the CommonJS build carries the class as a named member too.
const { Decimal } = createRequire(import.meta.url)('decimal.js') as typeof DecimalModule;

/**
 * Decimals with room to spare: a 21-digit amount times a rate is exact, and the only division
 * (`divideRounded`) works on integers, so nothing is ever rounded but the one rounding asked for.
 */
export const Money = Decimal.clone({
  precision: 200,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -200,
  toExpPos: 200,
});
export type Money = InstanceType<typeof Money>;

export const MAX_INTEGER_DIGITS = 15;
export const MAX_FRACTION_DIGITS = 6;
/** Leading zeros of the integer part and trailing zeros of the fraction are not counted, but even they have an end. */
const MAX_AMOUNT_LENGTH = 40;
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
/** Zero with a minus sign (`-0`, `-0.00`): still 0, a decimal ≥ 0 (SPEC §6), so read without its sign. */
const NEGATIVE_ZERO = /^-0+(?:\.0+)?$/;

export const AMOUNT_ACCEPTED =
  `a decimal number of 0 or more written with digits and an optional decimal point, such as 100 or 99.95, ` +
  `with at most ${MAX_INTEGER_DIGITS} digits before the point and ${MAX_FRACTION_DIGITS} after it (no sign, ` +
  `exponent, spaces or thousands separators)`;

/**
 * An amount as the query string gives it; anything but a plain non-negative decimal within the digit limits is a 400.
 * Zero written with a minus sign is zero.
 */
export function parseAmount(raw: string): Money {
  const unsigned = NEGATIVE_ZERO.test(raw) ? raw.slice(1) : raw;
  const match = raw.length <= MAX_AMOUNT_LENGTH ? DECIMAL.exec(unsigned) : null;
  if (!match) {
    const why = /^\s*-/.test(unsigned)
      ? 'it is negative'
      : raw.length > MAX_AMOUNT_LENGTH
        ? `it is ${raw.length} characters long`
        : 'it is not written that way';
    throw new ApiError('amountInvalid', `amount must be ${AMOUNT_ACCEPTED}; "${clip(raw)}" is not: ${why}.`);
  }
  const integerDigits = (match[1] ?? '').replace(/^0+/, '').length;
  const fractionDigits = (match[2] ?? '').replace(/0+$/, '').length;
  if (integerDigits > MAX_INTEGER_DIGITS || fractionDigits > MAX_FRACTION_DIGITS) {
    const why =
      integerDigits > MAX_INTEGER_DIGITS
        ? `${integerDigits} digits before the point`
        : `${fractionDigits} digits after the point`;
    throw new ApiError('amountInvalid', `amount must be ${AMOUNT_ACCEPTED}; "${clip(raw)}" has ${why}.`);
  }
  return new Money(unsigned);
}

/** The canonical text of a decimal: no exponent, no leading or trailing zeros (`100.50` → `100.5`). */
export function canonical(value: Money): string {
  return value.toFixed();
}

/**
 * numerator ÷ denominator, rounded half-even to `places` decimals — exactly, whatever the
 * digits: both are scaled to integers, and the integer quotient and its remainder decide the
 * rounding, so a tie is a true tie and no earlier rounding can have made or broken one.
 */
export function divideRounded(numerator: Money, denominator: Money, places: number): Money {
  const scale = Math.max(numerator.decimalPlaces(), denominator.decimalPlaces());
  const dividend = numerator.times(powerOfTen(scale + places));
  const divisor = denominator.times(powerOfTen(scale));
  const quotient = dividend.dividedToIntegerBy(divisor);
  const half = dividend.minus(quotient.times(divisor)).times(2).abs().comparedTo(divisor.abs());
  if (half < 0 || (half === 0 && quotient.mod(2).isZero())) return quotient.dividedBy(powerOfTen(places));
  const awayFromZero = dividend.isNegative() === divisor.isNegative() ? 1 : -1;
  return quotient.plus(awayFromZero).dividedBy(powerOfTen(places));
}

function powerOfTen(exponent: number): Money {
  return new Money(10).pow(exponent);
}

/** A client's text quoted back in a message, cut short so a huge value cannot swell the answer. */
function clip(text: string): string {
  return text.length > MAX_AMOUNT_LENGTH ? `${text.slice(0, MAX_AMOUNT_LENGTH)}…` : text;
}
