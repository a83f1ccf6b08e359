// Replays recorded exchanges against the OpenAPI documents: path, method, status, content type and body schema.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from './document-helper.js';
import { schemaName, VersionDocument, type Outcome } from './traffic-document.js';
import type { TrafficLine } from './traffic-recorder.js';
import { decoded, featuresOf, overrideOf, routedPath } from './traffic-request.js';
import { checkXml } from './traffic-xml.js';

export interface Mismatch {
  line: TrafficLine;
  detail: string;
}

export interface TrafficReport {
  /** Exchanges checked against a document. */
  checked: number;
  /** Exchanges left out, by reason. */
  excluded: Map<string, number>;
  /** Mismatches by kind (`status`, `content type`, …, with the feature the request used in brackets). */
  mismatches: Map<string, Mismatch[]>;
  /** `v2 GET /dogs/{id}`: every documented operation at least one exchange reached. */
  exercised: Set<string>;
}

/** Every line of every file the recorder wrote in `directory`. */
export function readTraffic(directory: string): TrafficLine[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(directory, name), 'utf8').split('\n'))
    .filter((text) => text !== '')
    .map((text) => JSON.parse(text) as TrafficLine);
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `v2 GET /dogs`: every operation the documents describe, by version. */
export function operationKeys(documents: ReadonlyMap<number, Json>): string[] {
  return [...documents].flatMap(([version, document]) =>
    Object.entries<Json>(document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => `v${version} ${method.toUpperCase()} ${path}`),
    ),
  );
}

/** Checks every line against the document of its version; see TrafficReport. */
export function checkTraffic(documents: ReadonlyMap<number, Json>, lines: Iterable<TrafficLine>): TrafficReport {
  const report: TrafficReport = { checked: 0, excluded: new Map(), mismatches: new Map(), exercised: new Set() };
  const byVersion = new Map([...documents].map(([version, document]) => [version, new VersionDocument(document)]));
  for (const line of lines) {
    const outcome = checkLine(byVersion, line, report.exercised);
    if (outcome.excluded !== undefined) {
      report.excluded.set(outcome.excluded, (report.excluded.get(outcome.excluded) ?? 0) + 1);
      continue;
    }
    report.checked += 1;
    if (outcome.kind === undefined) continue;
    const kind = `${outcome.kind}${featuresOf(line)}`;
    const list = report.mismatches.get(kind) ?? [];
    list.push({ line, detail: outcome.detail! });
    report.mismatches.set(kind, list);
  }
  return report;
}

function checkLine(byVersion: Map<number, VersionDocument>, line: TrafficLine, exercised: Set<string>): Outcome {
  if (line.protocolError !== undefined) return { excluded: `refused by Node before routing (${line.protocolError})` };
  if (line.host !== undefined && /^(dev|developer)\./.test(line.host))
    return { excluded: "the portal's host aliases (dev., developer.), redirected to the portal" };
  const pathname = line.url.split('?')[0]!;
  const versioned = /^\/v(\d+)(\/.*)?$/.exec(pathname);
  if (!versioned) return { excluded: 'outside /v<N>: portal, OAuth and infrastructure' };
  const doc = byVersion.get(Number(versioned[1]));
  if (!doc) return { excluded: 'a version the service does not have' };
  const path = routedPath(versioned[2] ?? '');
  const template = doc.match(path);
  if (template === undefined) return unmatchedPath(doc, path, line);
  const item: Json = doc.document.paths[template];
  // HEAD is GET without the body (RFC 9110 §9.3.2): it is checked against the GET operation.
  const method = line.method.toLowerCase();
  const operation: Json | undefined = item[method] ?? (method === 'head' ? item.get : undefined);
  if (!operation) {
    if (isRefusal(line)) return { excluded: 'a method the path does not offer, refused' };
    return { kind: 'method', detail: `${line.method} is not documented at ${template} but answered ${line.status}` };
  }
  exercised.add(`v${versioned[1]} ${line.method} ${template}`);
  return checkAnswer(doc, operation, line, `${method} ${template}`, item[overrideOf(line) ?? '']);
}

/** A 4xx, also one suppressed into a 200 (suppress_response_codes: its response_code says what it would have been). */
function isRefusal(line: TrafficLine): boolean {
  const suppressed =
    line.status === 200 ? /"response_code":"(\d{3})"|<response_code>(\d{3})</.exec(decoded(line)) : null;
  const status = suppressed ? Number(suppressed[1] ?? suppressed[2]) : line.status;
  return status >= 400 && status < 500;
}

function unmatchedPath(doc: VersionDocument, path: string, line: TrafficLine): Outcome {
  const refused = isRefusal(line);
  // The runtime strips any suffix of the last segment (`/dogs/abc.xml`): the path it then routes may be documented.
  const suffix = /\.([^/]*)$/.exec(path);
  const routed = suffix ? doc.match(path.slice(0, suffix.index)) : undefined;
  if (routed !== undefined) {
    if (refused && !/^(json|xml)$/i.test(suffix![1]!))
      return { excluded: 'a format suffix the service does not have, refused' };
    return { kind: 'path', detail: `the suffix form of ${routed} is not documented` };
  }
  if (refused) return { excluded: 'a path the API does not have, refused' };
  return { kind: 'path', detail: `no documented path matches, answered ${line.status}` };
}

function responseFor(operation: Json, status: number): Json | undefined {
  const responses: Json = operation.responses ?? {};
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

function checkAnswer(doc: VersionDocument, operation: Json, line: TrafficLine, where: string, carried?: Json): Outcome {
  const documented = responseFor(operation, line.status);
  if (!documented) return { kind: 'status', detail: `${line.status} is not a documented answer of ${where}` };
  const response = doc.resolve(documented);
  // A HEAD's answer has no body on the wire (RFC 9110 §9.3.2), whatever app.inject hands back.
  const body = line.method === 'HEAD' ? '' : decoded(line);
  const content: Json | undefined = response.content;
  const mediaType = (line.type ?? '').split(';')[0]!.trim().toLowerCase();
  if (body === '') {
    const mayBeEmpty =
      line.method === 'HEAD' ||
      line.status === 204 ||
      line.status === 304 ||
      mayAnswerEmpty(doc, content) ||
      (carried !== undefined && mayAnswerEmpty(doc, doc.resolve(responseFor(carried, line.status) ?? {}).content));
    if (!mayBeEmpty) return { kind: 'body', detail: `${where} ${line.status}: an empty body where one is documented` };
    // A HEAD names the type its GET would send: that one must be documented too.
    if (!content || mediaType === '' || mediaOf(content, mediaType)) return {};
  } else if (!content) {
    return { kind: 'body', detail: `${where} ${line.status} documents no body, got ${mediaType || 'one'}` };
  }
  const media = mediaOf(content!, mediaType);
  if (!media)
    return {
      kind: 'content type',
      detail: `${where} ${line.status}: ${mediaType || 'no type'} is not one of ${Object.keys(content!).join(', ')}`,
    };
  if (/[/+]json$/.test(mediaType)) return checkJson(doc, media, body, `${where} ${line.status}`);
  if (/[/+]xml$/.test(mediaType)) return checkXml(doc, media, body, `${where} ${line.status}`);
  return {};
}

/**
 * Whether a response may come without a body: it documents none, or only the suppressed error (a schema requiring
 * response_code), which an answer carries only under suppress_response_codes=true: a DELETE's 200 is empty otherwise.
 */
function mayAnswerEmpty(doc: VersionDocument, content: Json | undefined): boolean {
  if (!content) return true;
  const suppressed = (given: Json): boolean => {
    const schema = doc.resolve(given);
    const branches: Json[] | undefined = schema.anyOf ?? schema.oneOf;
    if (branches) return branches.every(suppressed);
    return Array.isArray(schema.required) && schema.required.includes('response_code');
  };
  return Object.values<Json>(content).every((media) => media.schema !== undefined && suppressed(media.schema));
}

function mediaOf(content: Json, mediaType: string): Json | undefined {
  return content[mediaType] ?? content[`${mediaType.split('/')[0]}/*`] ?? content['*/*'];
}

function checkJson(doc: VersionDocument, media: Json, body: string, where: string): Outcome {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { kind: 'schema', detail: `${where}: the body is not JSON` };
  }
  if (!media.schema) return {};
  const validate = doc.validator(media.schema);
  if (validate(value)) return {};
  const errors = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`).join('; ');
  return { kind: 'schema', detail: `${where} (${schemaName(media.schema)}): ${errors}` };
}

/** The mismatches as text, grouped by kind with counts, a few examples each. */
export function describeMismatches(report: TrafficReport, examples = 5): string {
  return [...report.mismatches]
    .sort(([, a], [, b]) => b.length - a.length)
    .map(([kind, list]) => {
      const details = new Map<string, number>();
      for (const { detail } of list) details.set(detail, (details.get(detail) ?? 0) + 1);
      const top = [...details].sort(([, a], [, b]) => b - a).slice(0, examples);
      return [`${kind}: ${list.length}`, ...top.map(([detail, count]) => `  ${count} × ${detail}`)].join('\n');
    })
    .join('\n');
}
