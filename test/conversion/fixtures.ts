// Test fixtures: small rate files in the ECB format, and the places RATES_FILE or RATES_URL can point at them.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';

/** An ECB daily file with the given days, each a list of [currency, rate]. */
export function ecbXml(days: ReadonlyArray<[string, ReadonlyArray<[string, string]>]>): string {
  const cubes = days.map(
    ([time, rates]) =>
      `\t\t<Cube time='${time}'>\n${rates.map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>`).join('\n')}\n\t\t</Cube>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
${cubes.join('\n')}
\t</Cube>
</gesmes:Envelope>
`;
}

/**
 * A made-up day whose numbers make the rounding visible: KWD has 3 minor units, CHF and SEK sit
 * a half step of the rate's 6th place away from EUR (1.0000005 → "1", 1.0000015 → "1.000002").
 */
export const TEST_RATES = ecbXml([
  [
    '2024-01-02',
    [
      ['USD', '1.25'],
      ['JPY', '150'],
      ['KWD', '0.3125'],
      ['CHF', '1.0000005'],
      ['SEK', '1.0000015'],
    ],
  ],
]);

/** Writes `content` to a file in a temporary folder removed when the test ends, and returns its path. */
export function tempFile(t: TestContext, name: string, content: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dog-registry-rates-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

/** A server on 127.0.0.1 that answers every request with `answer`, counting them; closed when the test ends. */
export async function rateServer(
  t: TestContext,
  answer: (response: http.ServerResponse) => void,
): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = http.createServer((_request, response) => {
    hits += 1;
    answer(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/eurofxref-daily.xml`, hits: () => hits };
}
