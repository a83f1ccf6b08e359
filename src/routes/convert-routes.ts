// GET /v<N>/convert?from=&to=&amount=: validate the three parameters, convert, answer the conversion envelope.
import type { Endpoint, Operation } from '../http/endpoint.js';
import { ApiError } from '../errors.js';
import { convert } from '../conversion/convert.js';
import type { RateTable } from '../conversion/ecb-rates.js';
import { single, type QueryParams } from '../query/collection.js';
import type { Document } from '../representation/document.js';
import { AMOUNT, currency, describe, IF_NONE_MATCH, NOT_MODIFIED } from './descriptor.js';
import { checkParams } from './resource-operations.js';

const CONVERT_PARAMETERS = ['from', 'to', 'amount'] as const;

const DESCRIPTOR = describe(
  { kind: 'convert' },
  [currency('from'), currency('to'), AMOUNT, IF_NONE_MATCH],
  [{ status: 200, document: 'conversion', headers: ['ETag'] }, NOT_MODIFIED],
);

export function convertEndpoint(rates: RateTable): Endpoint {
  const get: Operation = {
    descriptor: DESCRIPTOR,
    async run(context) {
      checkParams(context, DESCRIPTOR);
      const conversion = convert(rates, requiredParameters(context.query));
      const document: Document = { conversion: { ...conversion } };
      return { status: 200, document };
    },
  };
  return { path: '/convert', operations: { GET: get } };
}

type ConvertParameter = (typeof CONVERT_PARAMETERS)[number];

/** from, to and amount, each once; the missing or empty ones are named together in one 400. */
function requiredParameters(query: QueryParams): Record<ConvertParameter, string> {
  const values = { from: single(query, 'from'), to: single(query, 'to'), amount: single(query, 'amount') };
  const missing = CONVERT_PARAMETERS.filter((name) => !values[name]);
  if (missing.length > 0) {
    const named =
      missing.length === 1 ? `${missing[0]} is` : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)} are`;
    throw new ApiError(
      'conversionParameterMissing',
      `${named} missing or empty. A conversion takes from and to (ISO 4217 currency codes, such as EUR and USD) ` +
        'and amount (a decimal number of 0 or more): /convert?from=EUR&to=USD&amount=100.',
    );
  }
  return values as Record<ConvertParameter, string>;
}
