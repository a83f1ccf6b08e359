// Reads the ECB's euro foreign exchange reference rates XML (eurofxref-daily.xml) into a rate table.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { minorUnitsOf } from './iso4217.js';
import { Money } from './money.js';

export const ECB_SOURCE = 'European Central Bank euro reference rates';
const BASE_CURRENCY = 'EUR';

/** The rates of one day: units of each currency per euro, the euro itself included as 1. */
export interface RateTable {
  /** The day the rates are of, `YYYY-MM-DD`. */
  readonly date: string;
  readonly source: string;
  readonly rates: ReadonlyMap<string, Money>;
}

/** Rates that cannot be loaded: the service does not start (one clear line, like a bad variable). */
export class RatesError extends Error {
  override readonly name = 'RatesError';
}

// Values stay text: a rate read as a JavaScript number would already be a binary float.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseAttributeValue: false,
  parseTagValue: false,
  processEntities: false,
  isArray: (name) => name === 'Cube',
});

const CODE = /^[A-Z]{3}$/;
const RATE = /^\d{1,20}(\.\d{1,20})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Node = { [key: string]: unknown };

/**
 * The rate table of an ECB file; `origin` names where it came from, for the message. A file
 * with several days (the ECB's 90-day and historic files) gives the latest day.
 */
export function parseEcbRates(xml: string, origin: string): RateTable {
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw notEcb(origin, `it is not well-formed XML (line ${valid.err.line}: ${valid.err.msg.replace(/\.$/, '')})`);
  const envelope = (parser.parse(xml) as Node).Envelope as Node | undefined;
  if (!envelope || typeof envelope !== 'object') throw notEcb(origin, 'its root element is not <gesmes:Envelope>');
  const days = cubes(cubes(envelope)[0]).filter((day) => typeof day['@time'] === 'string');
  if (days.length === 0) throw notEcb(origin, 'it has no <Cube time="YYYY-MM-DD"> element with the rates of a day');
  const latest = days.reduce((a, b) => (String(b['@time']) > String(a['@time']) ? b : a));
  const date = String(latest['@time']);
  if (!isRealDate(date)) throw notEcb(origin, `the date "${date}" is not a date written YYYY-MM-DD`);

  const rates = new Map<string, Money>([[BASE_CURRENCY, new Money(1)]]);
  for (const cube of cubes(latest)) {
    const code = cube['@currency'];
    const rate = cube['@rate'];
    if (typeof code !== 'string' || !CODE.test(code))
      throw notEcb(
        origin,
        `a rate of ${date} has the currency "${String(code)}", which is not a three-letter code in upper case`,
      );
    if (minorUnitsOf(code) === undefined)
      throw notEcb(origin, `the currency ${code} is not in the service's ISO 4217 table (src/conversion/iso4217.ts)`);
    if (rates.has(code))
      throw notEcb(
        origin,
        code === BASE_CURRENCY
          ? 'it gives EUR a rate, but EUR is the base of the rates'
          : `${code} has more than one rate on ${date}`,
      );
    if (typeof rate !== 'string' || !RATE.test(rate) || /^[0.]+$/.test(rate))
      throw notEcb(origin, `the rate of ${code} is "${String(rate)}", not a decimal number above 0`);
    rates.set(code, new Money(rate));
  }
  if (rates.size === 1) throw notEcb(origin, `the day ${date} has no rates`);
  return { date, source: ECB_SOURCE, rates };
}

function notEcb(origin: string, reason: string): RatesError {
  return new RatesError(
    `${origin} is not in the ECB euro reference rates format (as ` +
      `https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml): ${reason}.`,
  );
}

/** The <Cube> children of a node (an empty list for anything else). */
function cubes(node: unknown): Node[] {
  const children = node && typeof node === 'object' ? (node as Node).Cube : undefined;
  return Array.isArray(children) ? children.filter((child): child is Node => !!child && typeof child === 'object') : [];
}

function isRealDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}
