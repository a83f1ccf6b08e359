// GET /v<N>/convert (SPEC §6): results worked out by hand from the bundled ECB rates of 2022-07-08.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, type TestApp } from '../helper.js';
import { rateServer, TEST_RATES, tempFile } from '../conversion/fixtures.js';

const SOURCE = 'European Central Bank euro reference rates';

async function conversion(api: TestApp, query: string, version = 2): Promise<Record<string, string>> {
  const response = await api.request({ url: `/v${version}/convert?${query}` });
  assert.equal(response.statusCode, 200, response.body);
  return response.json().conversion;
}

test('EUR to USD answers exactly the example of the SPEC, in v1 and v2', async (t) => {
  const api = await build(t);
  for (const version of [1, 2]) {
    const response = await api.request({ url: `/v${version}/convert?from=EUR&to=USD&amount=100` });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    // rate[USD] ÷ rate[EUR] = 1.0163 ÷ 1; 100 × 1.0163 = 101.63 (exact, 2 decimals for USD).
    assert.equal(
      response.body,
      `{"conversion":{"from":"EUR","to":"USD","amount":"100","rate":"1.0163","result":"101.63","rateDate":"2022-07-08","source":"${SOURCE}"}}`,
    );
  }
});

test('USD to EUR divides by the USD rate and rounds the rate half-even to six places', async (t) => {
  const api = await build(t);
  // 1 ÷ 1.0163 = 0.98396142871… → 0.983961 (the 7th place is 4);
  // 100 ÷ 1.0163 = 98.3961428711… → 98.40 (the 3rd place is 6), written with both decimals.
  assert.deepEqual(await conversion(api, 'from=USD&to=EUR&amount=100'), {
    from: 'USD',
    to: 'EUR',
    amount: '100',
    rate: '0.983961',
    result: '98.40',
    rateDate: '2022-07-08',
    source: SOURCE,
  });
});

test('a cross rate between two non-euro currencies goes through EUR', async (t) => {
  const api = await build(t);
  // GBP → JPY: rate[JPY] ÷ rate[GBP] = 138.05 ÷ 0.84585 = 163.20860672696… → 163.208607;
  // 100 × 138.05 ÷ 0.84585 = 16320.8606726… → 16321 (JPY has no minor units).
  const gbpJpy = await conversion(api, 'from=GBP&to=JPY&amount=100');
  assert.deepEqual([gbpJpy.rate, gbpJpy.result], ['163.208607', '16321']);
  // JPY → USD: 1.0163 ÷ 138.05 = 0.0073618254… → 0.007362; 10000 × 1.0163 ÷ 138.05 = 73.6182542… → 73.62.
  const jpyUsd = await conversion(api, 'from=JPY&to=USD&amount=10000');
  assert.deepEqual([jpyUsd.rate, jpyUsd.result], ['0.007362', '73.62']);
  // The result comes from the unrounded quotient: 10000 × 0.007362 would give 73.62 too, but
  // HUF → ISK shows the difference: 139.50 ÷ 402.45 = 0.34662691… → rate 0.346627;
  // 1000 × 139.50 ÷ 402.45 = 346.6269… → 347 (ISK has no minor units).
  const hufIsk = await conversion(api, 'from=HUF&to=ISK&amount=1000');
  assert.deepEqual([hufIsk.rate, hufIsk.result], ['0.346627', '347']);
});

test('a currency with no minor units gets a result without decimals', async (t) => {
  const api = await build(t);
  // 100 × 138.05 = 13805 (SPEC §6: JPY "13805").
  const jpy = await conversion(api, 'from=EUR&to=JPY&amount=100');
  assert.deepEqual([jpy.rate, jpy.result], ['138.05', '13805']);
  // 100 × 1321.61 = 132161 (KRW: 0 minor units); the rate keeps its two places.
  assert.equal((await conversion(api, 'from=EUR&to=KRW&amount=100')).result, '132161');
});

test('the same currency converts at rate 1 and rounds the amount once, half-even', async (t) => {
  const api = await build(t);
  const cases: ReadonlyArray<[string, string]> = [
    ['from=USD&to=USD&amount=100', '100.00'],
    ['from=usd&to=usd&amount=100.555', '100.56'], // a tie after the 2nd place: 5 is odd → up
    ['from=USD&to=USD&amount=100.545', '100.54'], // a tie: 4 is even → stays
    ['from=EUR&to=EUR&amount=0.004999', '0.00'],
    ['from=JPY&to=JPY&amount=2.5', '2'],
    ['from=JPY&to=JPY&amount=3.5', '4'],
  ];
  for (const [query, result] of cases) {
    const answer = await conversion(api, query);
    assert.deepEqual([answer.rate, answer.result], ['1', result], query);
  }
});

test('results are rounded once, half-even, to the minor units of the target currency', async (t) => {
  const api = await build(t);
  const cases: ReadonlyArray<[string, string, string]> = [
    ['JPY', '10', '1380'], //   10 × 138.05 = 1380.5   → tie, 0 is even → 1380 (half-up would say 1381)
    ['JPY', '30', '4142'], //   30 × 138.05 = 4141.5   → tie, 1 is odd  → 4142
    ['HUF', '0.1', '40.24'], //  0.1 × 402.45 = 40.245  → tie, 4 is even → 40.24 (HUF has 2 minor units)
    ['HUF', '0.3', '120.74'], // 0.3 × 402.45 = 120.735 → tie, 3 is odd  → 120.74
    ['ISK', '1', '140'], //      1 × 139.50 = 139.5    → tie, 9 is odd  → 140 (ISK has 0 minor units)
    ['ISK', '3', '418'], //      3 × 139.50 = 418.5    → tie, 8 is even → 418
    ['USD', '0.004', '0.00'], // 0.004 × 1.0163 = 0.0040652 → 0.00
    ['USD', '0.005', '0.01'], // 0.005 × 1.0163 = 0.0050815 → above the tie → 0.01
  ];
  for (const [to, amount, result] of cases) {
    assert.equal((await conversion(api, `from=EUR&to=${to}&amount=${amount}`)).result, result, `EUR→${to} ${amount}`);
  }
});

test('amounts with six decimals and the largest amount keep every digit', async (t) => {
  const api = await build(t);
  // 1234.567891 ÷ 1.0163 = 1214.7671858703… → 1214.77
  const six = await conversion(api, 'from=USD&to=EUR&amount=1234.567891');
  assert.deepEqual([six.amount, six.result], ['1234.567891', '1214.77']);
  // 999999999999999.999999 × 1.0163 = 1016299999999999.9999989837 → 1016300000000000.00:
  // 22 significant digits, beyond what a binary float holds.
  const largest = await conversion(api, 'from=EUR&to=USD&amount=999999999999999.999999');
  assert.deepEqual([largest.amount, largest.result], ['999999999999999.999999', '1016300000000000.00']);
  // 0.000001 × 1.0163 = 0.0000010163 → 0.00
  assert.equal((await conversion(api, 'from=EUR&to=USD&amount=0.000001')).result, '0.00');
});

test('codes are accepted in any case and echoed in upper case; amounts are echoed in canonical form', async (t) => {
  const api = await build(t);
  const echoed = await conversion(api, 'from=eur&to=uSd&amount=100.50');
  assert.deepEqual([echoed.from, echoed.to, echoed.amount, echoed.result], ['EUR', 'USD', '100.5', '102.14']); // 100.5 × 1.0163 = 102.13815
  const amounts: ReadonlyArray<[string, string, string]> = [
    ['100', '100', '101.63'],
    ['0.0', '0', '0.00'],
    ['0', '0', '0.00'],
    ['007.250', '7.25', '7.37'],
  ];
  for (const [amount, canonical, result] of amounts) {
    const answer = await conversion(api, `from=EUR&to=USD&amount=${amount}`);
    assert.deepEqual([answer.amount, answer.result], [canonical, result], amount);
  }
});

test('zero written with a minus sign is zero, echoed "0"; any other negative amount is a 400', async (t) => {
  const api = await build(t);
  for (const amount of ['-0', '-0.00', '-00.0']) {
    const response = await api.request({ url: `/v2/convert?from=EUR&to=USD&amount=${amount}` });
    assert.equal(response.statusCode, 200, amount);
    assert.match(String(response.headers['content-type']), /^application\/json/, amount);
    assert.equal(
      response.body,
      `{"conversion":{"from":"EUR","to":"USD","amount":"0","rate":"1.0163","result":"0.00","rateDate":"2022-07-08","source":"${SOURCE}"}}`,
      amount,
    );
  }
  for (const amount of ['-0.01', '-1', '-0.000001']) {
    const response = await api.request({ url: `/v2/convert?from=EUR&to=USD&amount=${amount}` });
    assert.equal(response.statusCode, 400, amount);
    assert.match(String(response.headers['content-type']), /^application\/json/, amount);
    assert.equal(response.json().code, 6001, amount);
    assert.match(response.json().message, new RegExp(`"${amount}" is not: it is negative\\.$`), amount);
  }
});

test('a conversion is XML with a .xml suffix or an Accept header', async (t) => {
  const api = await build(t);
  const expected =
    '<?xml version="1.0" encoding="UTF-8"?><conversion><from>EUR</from><to>JPY</to><amount>100</amount><rate>138.05</rate>' +
    `<result>13805</result><rateDate>2022-07-08</rateDate><source>${SOURCE}</source></conversion>`;
  for (const [url, headers] of [
    ['/v1/convert.xml?from=EUR&to=JPY&amount=100', {}],
    ['/v2/convert?from=EUR&to=JPY&amount=100', { accept: 'application/xml' }],
  ] as const) {
    const response = await api.request({ url, headers });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/xml/);
    assert.equal(response.body, expected);
  }
  const json = await api.request({
    url: '/v2/convert.json?from=EUR&to=JPY&amount=100',
    headers: { accept: 'application/xml' },
  });
  assert.match(String(json.headers['content-type']), /^application\/json/);
});

const CODES =
  'AUD, BGN, BRL, CAD, CHF, CNY, CZK, DKK, EUR, GBP, HKD, HRK, HUF, IDR, ILS, INR, ISK, JPY, KRW, MXN, MYR, NOK, NZD, PHP, PLN, RON, SEK, SGD, THB, TRY, USD, ZAR';
const AMOUNT_RULE = /a decimal number of 0 or more .* at most 15 digits before the point and 6 after it/;

const BAD: ReadonlyArray<[string, number, RegExp]> = [
  [
    'from=XYZ&to=USD&amount=1',
    6000,
    /^from "XYZ" is not an ISO 4217 code\. Accepted codes \(in any case\): AUD, BGN, .*, ZAR\.$/,
  ],
  [
    'from=EUR&to=aed&amount=1',
    6000,
    /^to "aed" is an ISO 4217 code, but the European Central Bank euro reference rates of 2022-07-08 have no rate for it\. Accepted codes/,
  ],
  ['from=EURO&to=USD&amount=1', 6000, /^from "EURO" is not a three-letter ISO 4217 code\. Accepted codes/],
  ['from=%E2%82%AC&to=USD&amount=1', 6000, /^from "€" is not a three-letter ISO 4217 code/],
  [
    'to=USD&amount=1',
    6002,
    /^from is missing or empty\. A conversion takes from and to \(ISO 4217 currency codes, such as EUR and USD\) and amount \(a decimal number of 0 or more\): \/convert\?from=EUR&to=USD&amount=100\.$/,
  ],
  ['from=EUR&to=USD', 6002, /^amount is missing or empty/],
  ['from=EUR&to=USD&amount=', 6002, /^amount is missing or empty/],
  ['', 6002, /^from, to and amount are missing or empty/],
  ['from=&to=&amount=1', 6002, /^from and to are missing or empty/],
  ['from=EUR&to=USD&amount=-100', 6001, /"-100" is not: it is negative/],
  ['from=EUR&to=USD&amount=abc', 6001, /"abc" is not: it is not written that way/],
  ['from=EUR&to=USD&amount=1e3', 6001, /"1e3" is not/],
  ['from=EUR&to=USD&amount=1,5', 6001, /"1,5" is not/],
  ['from=EUR&to=USD&amount=1234567890123456', 6001, /"1234567890123456" has 16 digits before the point/],
  ['from=EUR&to=USD&amount=1.1234567', 6001, /"1\.1234567" has 7 digits after the point/],
  [
    'from=EUR&to=USD&amount=100&amt=5',
    2000,
    /^The query parameter "amt" is not accepted here\. Accepted parameters: from, to, amount, suppress_response_codes, access_token\.$/,
  ],
  ['from=EUR&from=GBP&to=USD&amount=1', 2009, /"from" is given 2 times/],
];

test('every bad input is a 400 whose message lists what is accepted', async (t) => {
  const api = await build(t);
  for (const [query, code, message] of BAD) {
    const response = await api.request({ url: `/v2/convert?${query}` });
    assert.equal(response.statusCode, 400, query);
    const body = response.json();
    assert.equal(body.code, code, query);
    assert.equal(body.more_info, `http://api.test/portal/errors/${code}`, query);
    assert.match(body.message, message, query);
    if (code === 6000) assert.ok(body.message.endsWith(`Accepted codes (in any case): ${CODES}.`), query);
    if (code === 6001) assert.match(body.message, AMOUNT_RULE, query);
  }
});

test('errors of /convert are XML on request and 200 with response_code when suppressed', async (t) => {
  const api = await build(t);
  const xml = await api.request({ url: '/v1/convert.xml?from=EUR&to=USD&amount=-1' });
  assert.equal(xml.statusCode, 400);
  assert.match(
    xml.body,
    /^<\?xml version="1\.0" encoding="UTF-8"\?><error><message>amount must be .*<\/message><more_info>http:\/\/api\.test\/portal\/errors\/6001<\/more_info><code>6001<\/code><\/error>$/,
  );
  const suppressed = await api.request({ url: '/v1/convert?from=EUR&to=XXX&amount=1&suppress_response_codes=true' });
  assert.equal(suppressed.statusCode, 200);
  assert.deepEqual(Object.keys(suppressed.json()), ['response_code', 'message', 'more_info', 'code']);
  assert.equal(suppressed.json().response_code, '400');
  assert.equal(suppressed.json().code, 6000);
});

test('a conversion has an ETag, and If-None-Match answers 304 (or 200 with the body when suppressed)', async (t) => {
  const api = await build(t);
  const url = '/v2/convert?from=EUR&to=USD&amount=100';
  const first = await api.request({ url });
  const etag = String(first.headers.etag);
  assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
  const again = await api.request({ url, headers: { 'if-none-match': etag } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.body, '');
  const other = await api.request({
    url: '/v2/convert?from=EUR&to=USD&amount=101',
    headers: { 'if-none-match': etag },
  });
  assert.equal(other.statusCode, 200);
  assert.notEqual(other.headers.etag, etag);
  const suppressed = await api.request({
    url: `${url}&suppress_response_codes=true`,
    headers: { 'if-none-match': etag },
  });
  assert.equal(suppressed.statusCode, 200);
  assert.equal(suppressed.json().conversion.result, '101.63');
  const head = await api.request({ method: 'HEAD', url });
  assert.equal(head.statusCode, 200);
  assert.equal(head.headers.etag, etag);
});

test('only GET and HEAD are offered: other methods and overrides are a 400 with Allow', async (t) => {
  const api = await build(t);
  for (const [method, url] of [
    ['POST', '/v2/convert'],
    ['PUT', '/v1/convert'],
    ['DELETE', '/v2/convert'],
    ['GET', '/v2/convert?method=post&from=EUR&to=USD&amount=1'],
  ] as const) {
    const response = await api.request({ method, url });
    assert.equal(response.statusCode, 400, `${method} ${url}`);
    assert.equal(response.headers.allow, 'GET, HEAD', `${method} ${url}`);
    assert.equal(response.json().code, 1003, `${method} ${url}`);
  }
});

test('RATES_FILE replaces the bundled rates: its date, its currencies and their minor units', async (t) => {
  const api = await build(t, { RATES_FILE: tempFile(t, 'rates.xml', TEST_RATES) });
  // KWD has 3 minor units: 0.2 × 0.3125 = 0.0625 → tie, 2 is even → 0.062; 0.6 × 0.3125 = 0.1875 → tie, 7 is odd → 0.188.
  const kwd = await conversion(api, 'from=EUR&to=KWD&amount=0.2');
  assert.deepEqual(kwd, {
    from: 'EUR',
    to: 'KWD',
    amount: '0.2',
    rate: '0.3125',
    result: '0.062',
    rateDate: '2024-01-02',
    source: SOURCE,
  });
  assert.equal((await conversion(api, 'from=EUR&to=KWD&amount=0.6')).result, '0.188');
  // KWD → USD: 1.25 ÷ 0.3125 = 4 exactly → "4"; 100 × 4 = 400.00.
  const usd = await conversion(api, 'from=KWD&to=USD&amount=100');
  assert.deepEqual([usd.rate, usd.result], ['4', '400.00']);
  // The rate's own half-even rounding at the 6th place: 1.0000005 → 1 (0 is even), 1.0000015 → 1.000002 (1 is odd).
  assert.equal((await conversion(api, 'from=EUR&to=CHF&amount=1')).rate, '1');
  assert.equal((await conversion(api, 'from=EUR&to=SEK&amount=1')).rate, '1.000002');
  // The bundled currencies are gone, and the message lists the file's.
  const gbp = await api.request({ url: '/v2/convert?from=EUR&to=GBP&amount=1' });
  assert.equal(
    gbp.json().message,
    'to "GBP" is an ISO 4217 code, but the European Central Bank euro reference rates of 2024-01-02 have no rate for it. Accepted codes (in any case): CHF, EUR, JPY, KWD, SEK, USD.',
  );
});

test('RATES_URL is fetched once at start and then serves every conversion', async (t) => {
  const server = await rateServer(t, (response) =>
    response.writeHead(200, { 'content-type': 'text/xml' }).end(TEST_RATES),
  );
  const api = await build(t, { RATES_URL: server.url });
  assert.equal(server.hits(), 1);
  // 100 × 150 ÷ 1.25 = 12000 (USD → JPY through EUR).
  assert.deepEqual(await conversion(api, 'from=USD&to=JPY&amount=100'), {
    from: 'USD',
    to: 'JPY',
    amount: '100',
    rate: '120',
    result: '12000',
    rateDate: '2024-01-02',
    source: SOURCE,
  });
  await conversion(api, 'from=EUR&to=USD&amount=1');
  assert.equal(server.hits(), 1);
});

test('a RATES_URL that does not answer ECB rates stops the start with a clear message', async (t) => {
  const server = await rateServer(t, (response) => response.writeHead(503).end());
  await assert.rejects(build(t, { RATES_URL: server.url }), {
    name: 'RatesError',
    message: `RATES_URL ${server.url} answered HTTP 503; it must answer 200 with ECB euro reference rates XML.`,
  });
});

test('a RATES_FILE that does not parse as ECB rates stops the start with a clear message', async (t) => {
  const broken = tempFile(t, 'broken.xml', '<rates><USD>1.0163</USD></rates>');
  await assert.rejects(build(t, { RATES_FILE: broken }), {
    name: 'RatesError',
    message: `RATES_FILE ${broken} is not in the ECB euro reference rates format (as https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml): its root element is not <gesmes:Envelope>.`,
  });
});
