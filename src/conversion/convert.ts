// A currency conversion (SPEC §6): codes checked against the rates, cross rates through EUR, every number as decimal
// text.
import { ApiError } from '../errors.js';
import type { RateTable } from './ecb-rates.js';
import { minorUnitsOf } from './iso4217.js';
import { canonical, divideRounded, parseAmount } from './money.js';

/** The rate's decimal places (SPEC §6); trailing zeros are then dropped. */
export const RATE_PLACES = 6;

export interface Conversion {
  readonly from: string;
  readonly to: string;
  readonly amount: string;
  readonly rate: string;
  readonly result: string;
  readonly rateDate: string;
  readonly source: string;
}

export interface ConversionRequest {
  readonly from: string;
  readonly to: string;
  readonly amount: string;
}

/**
 * amount × rate[to] ÷ rate[from], rounded once, half-even, to the target's ISO 4217 minor
 * units and written with exactly that many decimals; `rate` is the same quotient for 1 unit,
 * rounded to 6 places. The rate is never rounded before the result is computed.
 */
export function convert(table: RateTable, request: ConversionRequest): Conversion {
  const from = currencyOf(table, 'from', request.from);
  const to = currencyOf(table, 'to', request.to);
  const amount = parseAmount(request.amount);
  const fromRate = table.rates.get(from)!;
  const toRate = table.rates.get(to)!;
  const places = minorUnitsOf(to)!;
  return {
    from,
    to,
    amount: canonical(amount),
    rate: canonical(divideRounded(toRate, fromRate, RATE_PLACES)),
    result: divideRounded(amount.times(toRate), fromRate, places).toFixed(places),
    rateDate: table.date,
    source: table.source,
  };
}

/** The codes a conversion accepts, in alphabetical order. */
function acceptedCodes(table: RateTable): string[] {
  return [...table.rates.keys()].sort();
}

function currencyOf(table: RateTable, parameter: 'from' | 'to', raw: string): string {
  const code = raw.toUpperCase();
  const wellFormed = /^[A-Z]{3}$/.test(code);
  if (wellFormed && table.rates.has(code)) return code;
  const why = !wellFormed
    ? 'is not a three-letter ISO 4217 code'
    : minorUnitsOf(code) !== undefined
      ? `is an ISO 4217 code, but the ${table.source} of ${table.date} have no rate for it`
      : 'is not an ISO 4217 code';
  throw new ApiError(
    'currencyUnknown',
    `${parameter} "${clip(raw)}" ${why}. Accepted codes (in any case): ${acceptedCodes(table).join(', ')}.`,
  );
}

function clip(text: string): string {
  return text.length > 20 ? `${text.slice(0, 20)}…` : text;
}
