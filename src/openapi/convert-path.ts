// Describes GET /convert in the OpenAPI document: its three parameters, the conversion envelope in JSON and XML.
import { RATE_PLACES } from '../conversion/convert.js';
import { ECB_SOURCE } from '../conversion/ecb-rates.js';
import { AMOUNT_ACCEPTED, MAX_FRACTION_DIGITS, MAX_INTEGER_DIGITS } from '../conversion/money.js';
import type { Prose } from './describe-operation.js';
import { ref, type JsonObject } from './json-schema.js';

const CODE = { type: 'string', pattern: '^[A-Za-z]{3}$' };
const CANONICAL_DECIMAL = `^(0|[1-9][0-9]{0,${MAX_INTEGER_DIGITS - 1}})(\\.[0-9]{0,${MAX_FRACTION_DIGITS - 1}}[1-9])?$`;

const AMOUNT: JsonObject = {
  name: 'amount',
  in: 'query',
  required: true,
  example: '100',
  description:
    `The amount of the source currency: ${AMOUNT_ACCEPTED}. It is echoed in canonical form (100.50 → "100.5"; ` +
    `zero with a minus sign, -0, is 0). Anything else is a 400 (code 6001).`,
  schema: { type: 'string', pattern: '^(-0+(\\.0+)?|[0-9]+(\\.[0-9]+)?)$', maxLength: 40 },
};

/** A parameter of /convert, written in place: no other operation has it. */
export function convertParameter(name: string): JsonObject {
  if (name === 'from') return codeParameter('from', 'EUR', 'source');
  if (name === 'to') return codeParameter('to', 'USD', 'target');
  if (name === 'amount') return AMOUNT;
  throw new Error(`/convert has no parameter ${name}`);
}

function codeParameter(name: 'from' | 'to', example: string, role: string): JsonObject {
  return {
    name,
    in: 'query',
    required: true,
    example,
    description:
      `The ${role} currency: a three-letter ISO 4217 code, in any case, for which the service has a rate (the ` +
      `ECB publishes about 30). ` +
      'An unknown code is a 400 (code 6000) whose message lists the accepted ones.',
    schema: CODE,
  };
}

/** The words of GET /convert; the same in every version. */
export function convertProse(): Prose {
  return {
    operationId: 'convertCurrency',
    summary: 'Convert an amount between currencies',
    description:
      'amount × rate[to] ÷ rate[from], with the euro reference rates of the European Central Bank (cross rates ' +
      'through EUR), ' +
      'computed in decimal and rounded once, half-even, to the minor units of the target currency (ISO 4217: JPY ' +
      '0, USD 2, KWD 3). ' +
      `rate is rate[to] ÷ rate[from] rounded half-even to ${RATE_PLACES} places. Every number is a string, so no ` +
      `client reads money as a binary float. ` +
      'from, to and amount are all required; a missing one is a 400 (code 6002).',
    tags: ['conversion'],
    answers: { 200: 'The conversion.' },
  };
}

export function convertSchemas(): Record<string, JsonObject> {
  const decimal = (description: string, pattern: string, example: string): JsonObject => ({
    type: 'string',
    pattern,
    description,
    examples: [example],
  });
  return {
    Conversion: {
      type: 'object',
      description: 'A conversion. In XML: `<conversion><from>EUR</from>…</conversion>`.',
      xml: { name: 'conversion' },
      required: ['from', 'to', 'amount', 'rate', 'result', 'rateDate', 'source'],
      additionalProperties: false,
      properties: {
        from: {
          type: 'string',
          pattern: '^[A-Z]{3}$',
          description: 'The source currency, in upper case.',
          examples: ['EUR'],
        },
        to: {
          type: 'string',
          pattern: '^[A-Z]{3}$',
          description: 'The target currency, in upper case.',
          examples: ['USD'],
        },
        amount: decimal(
          'The amount converted, in canonical form: no exponent, no leading or trailing zeros.',
          CANONICAL_DECIMAL,
          '100',
        ),
        rate: decimal(
          `rate[to] ÷ rate[from], rounded half-even to ${RATE_PLACES} places, trailing zeros removed.`,
          '^[0-9]+(\\.[0-9]*[1-9])?$',
          '1.0163',
        ),
        result: decimal(
          "The converted amount, with exactly as many decimals as the target currency's ISO 4217 minor units.",
          '^[0-9]+(\\.[0-9]+)?$',
          '101.63',
        ),
        rateDate: {
          type: 'string',
          pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
          description: 'The day of the rates (YYYY-MM-DD).',
          examples: ['2022-07-08'],
        },
        source: { type: 'string', description: 'Where the rates come from.', examples: [ECB_SOURCE] },
      },
    },
    ConversionEnvelope: {
      type: 'object',
      description: 'A conversion in its JSON envelope.',
      required: ['conversion'],
      properties: { conversion: ref('schemas', 'Conversion') },
      additionalProperties: false,
    },
  };
}
