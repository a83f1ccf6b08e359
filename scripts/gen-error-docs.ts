// Generates docs/errors.md from the error catalogue (src/error-catalogue.ts): `npm run docs:errors`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { errorExamples } from '../src/error-examples.js';
import { catalogue, catalogueEntries, type CatalogueEntry, type ErrorName } from '../src/errors.js';

export const ERROR_DOC_PATH = fileURLToPath(new URL('../docs/errors.md', import.meta.url));

export const REGENERATE_COMMAND = 'npm run docs:errors';

/** The areas of the numbering, by the thousands digit of a code (see the head of src/error-catalogue.ts). */
const AREAS: Readonly<Record<number, string>> = {
  1: 'Request routing and format',
  2: 'Query parameters and request headers',
  3: 'Request bodies',
  4: 'The addressed items',
  5: 'Authentication, sign-up and rate limits',
  6: 'Currency conversion',
  9: 'The server',
};

type Entry = CatalogueEntry & { name: ErrorName };

/** The whole of docs/errors.md, from the catalogue as it is now; the same catalogue gives the same text. */
export function renderErrorDoc(): string {
  const entries = catalogueEntries();
  const lines = [
    '# Error codes',
    '',
    `<!-- Generated from the catalogue in src/error-catalogue.ts by \`${REGENERATE_COMMAND}\`. Do not edit by hand: change the catalogue and regenerate. -->`,
    '',
    'Every error answer of the API names one entry of this catalogue by its integer `code`. The same',
    'entries are served as pages by the developer portal at `{portal}/errors` and `{portal}/errors/<code>`',
    "(by default `http://localhost:8080/portal/errors`), which is where each answer's `more_info` points.",
    '',
    ...envelopeSection(),
    ...numberingSection(),
    '## All codes',
    '',
    '| code | HTTP status | name | title | retryable |',
    '|---:|---:|---|---|---|',
    ...entries.map(
      (entry) =>
        `| [${entry.code}](#${anchorOf(entry)}) | ${entry.status} | \`${entry.name}\` | ${cell(entry.title)} | ${entry.retryable ? 'yes' : 'no'} |`,
    ),
    '',
    ...areaSections(entries),
  ];
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function envelopeSection(): string[] {
  const example = catalogue.itemNotFound;
  const message =
    'There is no dog with the id \\"abc\\". It may have been deleted, or the id is mistyped; GET /dogs lists the current ones.';
  const moreInfo = `http://localhost:8080/portal/errors/${example.code}`;
  return [
    '## The error envelope',
    '',
    'An error answer carries the HTTP status of its entry and a body with three members:',
    '',
    '- `message`: what went wrong and how to fix it, in plain language. It names the parameter, field or',
    '  value at fault and, where there is a fixed set, lists what is accepted.',
    '- `more_info`: a link to the portal page of the code, `{portal}/errors/<code>`.',
    '- `code`: the integer code of the entry.',
    '',
    'In JSON the members are the top-level object:',
    '',
    '```json',
    `{"message":"${message}","more_info":"${moreInfo}","code":${example.code}}`,
    '```',
    '',
    'In XML (a `.xml` suffix on the path, or `Accept: application/xml`) they are the children of `<error>`:',
    '',
    '```xml',
    `<?xml version="1.0" encoding="UTF-8"?><error><message>${message.replaceAll('\\"', '&quot;')}</message><more_info>${moreInfo}</more_info><code>${example.code}</code></error>`,
    '```',
    '',
    'With `suppress_response_codes=true` in the query string, every answer under `/v<N>/` has the HTTP status',
    '200, for clients that cannot read other statuses. An error body then starts with `response_code`, the',
    `status it would have had, as a string: \`{"response_code":"${example.status}","message":…,"more_info":…,"code":${example.code}}\`,`,
    `or \`<error><response_code>${example.status}</response_code>…</error>\` in XML. Success bodies are unchanged.`,
    '',
    'A 500 answer never shows internal details: its message carries the request id (also in the',
    "`X-Request-Id` header of every answer), which matches the service's log line of the failure.",
    '',
    'A few errors carry a header as well: a method a path does not offer (code',
    `${catalogue.methodNotAllowed.code}) answers with \`Allow\`, listing the methods the path offers; the token errors (codes`,
    `${catalogue.tokenMissing.code}, ${catalogue.tokenInvalid.code}, ${catalogue.scopeInsufficient.code}) answer with an RFC 6750 \`WWW-Authenticate: Bearer …\` challenge;`,
    `and the rate limit (code ${catalogue.rateLimited.code}) answers with \`Retry-After\` and the \`RateLimit-*\` headers.`,
    '',
  ];
}

function numberingSection(): string[] {
  return [
    '## Numbering',
    '',
    'Codes are numbered by area; the thousands digit names it:',
    '',
    ...Object.entries(AREAS).map(([digit, area]) => `- ${digit}xxx: ${area.charAt(0).toLowerCase()}${area.slice(1)}`),
    '',
    'A code keeps its meaning for as long as the API exists: clients may switch on it. A new error gets',
    'the next free number of its area. A code that is retired is never reused for another error.',
    '`retryable` says whether the same request, sent again later, may succeed; for the other codes the',
    'request itself has to change.',
    '',
  ];
}

function areaSections(entries: readonly Entry[]): string[] {
  const lines: string[] = [];
  let area: number | undefined;
  for (const entry of entries) {
    const digit = Math.floor(entry.code / 1000);
    if (digit !== area) {
      area = digit;
      lines.push(`## ${digit}xxx: ${AREAS[digit] ?? 'Other'}`, '');
    }
    lines.push(
      `### ${headingOf(entry)}`,
      '',
      `HTTP status ${entry.status}; name \`${entry.name}\`; ${entry.retryable ? 'retryable: the same request may succeed later' : 'not retryable: change the request as the message says'}.`,
      '',
      entry.explanation,
      '',
      exampleLine(entry),
      '',
    );
  }
  return lines;
}

/** The page's example in one line: the request (and its situation) and the message it answers with. */
export function exampleLine(entry: Entry): string {
  const example = errorExamples[entry.name];
  const shown = (text: string): string =>
    text
      .replaceAll('{dog}', '<id>')
      .replaceAll('{etag}', '<etag>')
      .replaceAll('{token}', '<token>')
      .replaceAll('{requestId}', '<request id>');
  const request = example.request.length > 80 ? `${example.request.slice(0, 77)}...` : example.request;
  const situation = example.situation ? `${example.situation} ` : '';
  // In markdown's text a < would open an HTML tag.
  const message = shown(example.message).replaceAll('<', '&lt;');
  return `${situation}Example: \`${shown(request)}\`${example.raw === undefined ? '' : ' (as raw bytes)'} answers "${message}"`;
}

function headingOf(entry: Entry): string {
  return `${entry.code} ${entry.title}`;
}

/** The anchor GitHub gives a heading: lower case, punctuation except - and _ dropped, spaces as -. */
function anchorOf(entry: Entry): string {
  return headingOf(entry)
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

function isMain(): boolean {
  const entry = process.argv[1];
  return entry !== undefined && import.meta.url === pathToFileURL(path.resolve(entry)).href;
}

if (isMain()) {
  fs.writeFileSync(ERROR_DOC_PATH, renderErrorDoc());
  process.stdout.write(`wrote ${path.relative(process.cwd(), ERROR_DOC_PATH)}\n`);
}
