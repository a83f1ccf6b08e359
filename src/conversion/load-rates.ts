// Loads the conversion rates once at start: RATES_FILE, RATES_URL, or the ECB snapshot bundled with the service.
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { parseEcbRates, RatesError, type RateTable } from './ecb-rates.js';

/** At the repository root, so the same relative path works from src/ (tsx) and from the compiled dist/. */
export const BUNDLED_RATES_FILE = fileURLToPath(new URL('../../rates/ecb-eurofxref-2022-07-08.xml', import.meta.url));

const RATES_URL_TIMEOUT_MS = 10_000;
/** The ECB's whole history since 1999 is a few MB; anything far larger is not a rates file. */
const MAX_RATES_BYTES = 64 * 1024 * 1024;

export interface LoadOptions {
  /** How long RATES_URL may take to answer in full. */
  readonly timeoutMs?: number;
}

export async function loadRates(
  config: Pick<Config, 'ratesFile' | 'ratesUrl'>,
  options: LoadOptions = {},
): Promise<RateTable> {
  if (config.ratesFile !== undefined && config.ratesUrl !== undefined) {
    throw new RatesError(
      'RATES_FILE and RATES_URL are both set; set one of them (or neither, for the bundled ECB rates of 2022-07-08).',
    );
  }
  if (config.ratesUrl !== undefined) {
    return parseEcbRates(
      await fetchRates(config.ratesUrl, options.timeoutMs ?? RATES_URL_TIMEOUT_MS),
      `RATES_URL ${config.ratesUrl}`,
    );
  }
  const file = config.ratesFile ?? BUNDLED_RATES_FILE;
  const origin = config.ratesFile !== undefined ? `RATES_FILE ${file}` : `the bundled rates file ${file}`;
  return parseEcbRates(await readRates(file, origin), origin);
}

async function readRates(file: string, origin: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new RatesError(
      `${origin} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give the ` +
        `path of an ECB euro reference rates XML file.`,
    );
  }
}

async function fetchRates(url: string, timeoutMs: number): Promise<string> {
  const origin = `RATES_URL ${url}`;
  let text: string;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/xml, text/xml' },
    });
    if (!response.ok)
      throw new RatesError(
        `${origin} answered HTTP ${response.status}; it must answer 200 with ECB euro reference rates XML.`,
      );
    if (Number(response.headers.get('content-length') ?? 0) > MAX_RATES_BYTES) throw tooLarge(origin);
    text = await response.text();
  } catch (error) {
    if (error instanceof RatesError) throw error;
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    const cause = timedOut ? `no complete answer within ${timeoutMs / 1000} s` : describeFailure(error);
    throw new RatesError(
      `${origin} could not be fetched (${cause}); check the URL, or use RATES_FILE with a downloaded copy.`,
    );
  }
  if (text.length > MAX_RATES_BYTES) throw tooLarge(origin);
  return text;
}

function tooLarge(origin: string): RatesError {
  return new RatesError(
    `${origin} answered with more than ${MAX_RATES_BYTES / 1024 / 1024} MB, far more than ECB rates take.`,
  );
}

/** fetch reports network failures as "fetch failed" with the useful part (ECONNREFUSED, ENOTFOUND…) in its cause. */
function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
