// The example of an error code's page (SPEC §12): the request that gets the error and the answer, as HTTP text, with
// the service's own addresses. The examples are data (error-examples.ts); the test that keeps them true sends them.
import { STATUS_CODES } from 'node:http';
import type { Config } from '../config.js';
import type { CatalogueEntry } from '../errors.js';
import type { ErrorExample } from '../error-examples.js';
import { escapeEcho } from '../query/xml-text.js';
import { escapeHtml } from './html.js';

/** The sample values the page shows for an example's placeholders. */
const SAMPLES = {
  dog: 'Tq3sY0bXw8r5mJ2kP9aLdA',
  etag: 'r9E1hDq2yWkP0vXa5MbTn3LcJ8s',
  token: 'YOUR_TOKEN',
  requestId: '0b6f5a52-9c1e-4b7a-8a35-2f4d3c9e7d10',
};
/** A line longer than this is shortened on the page, saying how long it is. */
const LONGEST_LINE = 120;

function filled(text: string, config: Config): string {
  return text
    .replaceAll('{base}', config.publicUrl)
    .replaceAll('{portal}', config.portalUrl)
    .replaceAll('{host}', new URL(config.publicUrl).host)
    .replaceAll('{dog}', SAMPLES.dog)
    .replaceAll('{etag}', SAMPLES.etag)
    .replaceAll('{token}', SAMPLES.token)
    .replaceAll('{requestId}', SAMPLES.requestId);
}

function shortened(line: string): string {
  return line.length <= LONGEST_LINE
    ? line
    : `${line.slice(0, LONGEST_LINE / 2)}… (${line.length.toLocaleString('en-US')} characters in all)`;
}

/** The request as it goes on the wire: its request line under {base} (or {portal}), its headers, its body. */
function requestText(example: ErrorExample, config: Config): string {
  if (example.raw !== undefined) {
    const raw = filled(example.raw, config);
    const split = raw.indexOf('\r\n\r\n');
    const head = raw.slice(0, split).split('\r\n');
    const body = raw.slice(split + 4);
    // A control character in a line (the point of some examples) shows as its \uXXXX.
    return [...head, '', ...(body ? [body] : [])]
      .map((line) => escapeEcho(shortened(line)))
      .join('\n')
      .trimEnd();
  }
  const [method, target] = example.request.split(' ') as [string, string];
  const url = target.startsWith('{portal}') ? target : `{base}${target}`;
  const headers = Object.entries(example.headers ?? {}).map(([name, value]) => `${name}: ${value}`);
  if (example.token === undefined || example.token === 'read-only')
    headers.unshift(`Authorization: Bearer ${SAMPLES.token}`);
  const lines = [`${method} ${filled(url, config)}`, ...headers.map((line) => filled(line, config))];
  if (example.body !== undefined) lines.push('', filled(example.body, config));
  return lines.map(shortened).join('\n');
}

/** What the reader needs to know besides the request: the token's scope, what came before, the settings. */
function circumstances(example: ErrorExample): string[] {
  const notes: string[] = [];
  if (example.situation) notes.push(example.situation);
  if (example.token === 'read-only') notes.push('The token was issued with the read scope only.');
  if (example.settings)
    notes.push(
      `The service runs with ${Object.entries(example.settings)
        .map(([name, value]) => `${name}=${value}`)
        .join(', ')}.`,
    );
  if (example.before) {
    const times = example.before.times ?? 1;
    const sent = times === 1 ? 'once' : `${times} times`;
    notes.push(
      example.before.body === undefined
        ? `The same request was sent ${sent} before${example.settings?.RATE_LIMIT_PER_MINUTE ? ' within the minute' : ''}.`
        : `The same request was sent ${sent} before with the body ${example.before.body}.`,
    );
  }
  if (example.raw !== undefined) notes.push('No HTTP library sends this; these are the bytes on the connection.');
  return notes;
}

/** The section of an error's page: the request, what else was so, and the answer. */
export function exampleSection(entry: CatalogueEntry, example: ErrorExample, config: Config): string {
  const body = JSON.stringify(
    {
      message: filled(example.message, config),
      more_info: `${config.portalUrl}/errors/${entry.code}`,
      code: entry.code,
    },
    null,
    2,
  );
  const headers = Object.entries(example.answerHeaders ?? {}).map(([name, value]) => `${name}: ${value}\n`);
  const answer =
    `HTTP/1.1 ${entry.status} ${STATUS_CODES[entry.status]}\nContent-Type: application/json; charset=utf-8\n` +
    `${headers.join('')}X-Request-Id: ${SAMPLES.requestId}\n\n${body}`;
  const notes = circumstances(example)
    .map((note) => `<p>${escapeHtml(note)}</p>`)
    .join('\n');
  return `<h2 id="example">Example</h2>
${notes}
<p>The request:</p>
<pre><code>${escapeHtml(requestText(example, config))}</code></pre>
<p>The answer:</p>
<pre><code>${escapeHtml(answer)}</code></pre>`;
}
