// Reading the ECB rates: the bundled snapshot, RATES_FILE, RATES_URL, and files that are not ECB XML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import { parseEcbRates, RatesError } from '../../src/conversion/ecb-rates.js';
import { BUNDLED_RATES_FILE, loadRates } from '../../src/conversion/load-rates.js';
import { canonical } from '../../src/conversion/money.js';
import { ecbXml, rateServer, TEST_RATES, tempFile } from './fixtures.js';

test('the bundled snapshot is the ECB file of 2022-07-08 with 31 currencies besides the euro', async () => {
  const table = await loadRates({});
  assert.equal(table.date, '2022-07-08');
  assert.equal(table.source, 'European Central Bank euro reference rates');
  assert.equal(table.rates.size, 32);
  const rates = Object.fromEntries([...table.rates].map(([code, rate]) => [code, canonical(rate)]));
  assert.deepEqual(
    { EUR: rates.EUR, USD: rates.USD, JPY: rates.JPY, GBP: rates.GBP, ISK: rates.ISK, IDR: rates.IDR },
    { EUR: '1', USD: '1.0163', JPY: '138.05', GBP: '0.84585', ISK: '139.5', IDR: '15210.73' },
  );
  assert.equal(
    fs.readFileSync(BUNDLED_RATES_FILE, 'utf8'),
    fs.readFileSync(new URL('../../rates/ecb-eurofxref-2022-07-08.xml', import.meta.url), 'utf8'),
  );
});

test('a file with several days (the ECB 90-day and history files) gives the latest day', () => {
  const xml = ecbXml([
    ['2024-01-03', [['USD', '1.1']]],
    ['2024-01-05', [['USD', '1.3']]],
    ['2024-01-04', [['USD', '1.2']]],
  ]);
  const table = parseEcbRates(xml, 'test');
  assert.equal(table.date, '2024-01-05');
  assert.equal(canonical(table.rates.get('USD')!), '1.3');
});

const BROKEN: ReadonlyArray<[string, string, RegExp]> = [
  ['not XML at all', '{"rates": {"USD": 1.0163}}', /not well-formed XML/],
  ['unclosed elements', TEST_RATES.slice(0, 200), /not well-formed XML/],
  [
    'another XML document',
    '<?xml version="1.0"?><rates><USD>1.0163</USD></rates>',
    /root element is not <gesmes:Envelope>/,
  ],
  ['no day', ecbXml([]).replace(/\t<Cube>\n\n\t<\/Cube>/, '<Cube></Cube>'), /no <Cube time="YYYY-MM-DD">/],
  ['a day without rates', ecbXml([['2024-01-02', []]]), /the day 2024-01-02 has no rates/],
  ['an impossible date', ecbXml([['2024-02-30', [['USD', '1.1']]]]), /the date "2024-02-30"/],
  ['a rate that is not a decimal', ecbXml([['2024-01-02', [['USD', '1,1']]]]), /the rate of USD is "1,1"/],
  ['a rate in exponent form', ecbXml([['2024-01-02', [['USD', '1e0']]]]), /the rate of USD is "1e0"/],
  ['a zero rate', ecbXml([['2024-01-02', [['USD', '0.000']]]]), /not a decimal number above 0/],
  ['a negative rate', ecbXml([['2024-01-02', [['USD', '-1.1']]]]), /the rate of USD is "-1.1"/],
  ['a lower-case code', ecbXml([['2024-01-02', [['usd', '1.1']]]]), /currency "usd"/],
  ['a code outside ISO 4217', ecbXml([['2024-01-02', [['XYZ', '1.1']]]]), /XYZ is not in the service's ISO 4217 table/],
  ['a rate for the euro', ecbXml([['2024-01-02', [['EUR', '1']]]]), /EUR is the base/],
  [
    'a currency twice',
    ecbXml([
      [
        '2024-01-02',
        [
          ['USD', '1.1'],
          ['USD', '1.2'],
        ],
      ],
    ]),
    /USD has more than one rate on 2024-01-02/,
  ],
];

test('a file that is not in the ECB format is refused with a message that says where and why', () => {
  for (const [why, xml, says] of BROKEN) {
    assert.throws(
      () => parseEcbRates(xml, 'RATES_FILE /tmp/rates.xml'),
      (error: unknown) => {
        assert.ok(error instanceof RatesError, why);
        assert.match(error.message, /^RATES_FILE \/tmp\/rates\.xml is not in the ECB euro reference rates format/, why);
        assert.match(error.message, says, why);
        assert.doesNotMatch(error.message, /\n/, why);
        return true;
      },
    );
  }
});

test('RATES_FILE replaces the bundled rates', async (t) => {
  const table = await loadRates({ ratesFile: tempFile(t, 'rates.xml', TEST_RATES) });
  assert.equal(table.date, '2024-01-02');
  assert.deepEqual([...table.rates.keys()].sort(), ['CHF', 'EUR', 'JPY', 'KWD', 'SEK', 'USD']);
});

test('a RATES_FILE that cannot be read is refused, naming the path', async (t) => {
  const missing = `${tempFile(t, 'other.xml', '')}.missing`;
  await assert.rejects(loadRates({ ratesFile: missing }), (error: Error) => {
    assert.ok(error instanceof RatesError);
    assert.equal(
      error.message,
      `RATES_FILE ${missing} cannot be read (ENOENT); give the path of an ECB euro reference rates XML file.`,
    );
    return true;
  });
});

test('RATES_FILE and RATES_URL together are refused', async () => {
  await assert.rejects(
    loadRates({ ratesFile: '/x.xml', ratesUrl: 'http://127.0.0.1:9/x.xml' }),
    /RATES_FILE and RATES_URL are both set; set one of them/,
  );
});

test('RATES_URL is fetched and read like a file', async (t) => {
  const server = await rateServer(t, (response) =>
    response.writeHead(200, { 'content-type': 'text/xml' }).end(TEST_RATES),
  );
  const table = await loadRates({ ratesUrl: server.url });
  assert.equal(table.date, '2024-01-02');
  assert.equal(canonical(table.rates.get('KWD')!), '0.3125');
  assert.equal(server.hits(), 1);
});

test('a RATES_URL that fails, times out or answers something else is refused with the reason', async (t) => {
  const notFound = await rateServer(t, (response) => response.writeHead(404).end('no'));
  await assert.rejects(loadRates({ ratesUrl: notFound.url }), {
    name: 'RatesError',
    message: `RATES_URL ${notFound.url} answered HTTP 404; it must answer 200 with ECB euro reference rates XML.`,
  });

  const html = await rateServer(t, (response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Rates</body></html>'),
  );
  await assert.rejects(loadRates({ ratesUrl: html.url }), {
    name: 'RatesError',
    message: `RATES_URL ${html.url} is not in the ECB euro reference rates format (as https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml): its root element is not <gesmes:Envelope>.`,
  });

  const silent = await rateServer(t, () => {});
  await assert.rejects(loadRates({ ratesUrl: silent.url }, { timeoutMs: 200 }), {
    name: 'RatesError',
    message: `RATES_URL ${silent.url} could not be fetched (no complete answer within 0.2 s); check the URL, or use RATES_FILE with a downloaded copy.`,
  });

  const gone = http.createServer();
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  const port = (gone.address() as AddressInfo).port;
  await new Promise((resolve) => gone.close(resolve));
  await assert.rejects(
    loadRates({ ratesUrl: `http://127.0.0.1:${port}/x.xml` }),
    /could not be fetched \(ECONNREFUSED\)/,
  );
});
