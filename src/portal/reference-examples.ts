// The examples of the reference: a curl line for the request and the answer, from the document's examples where it
// has them, otherwise made from its schemas; and what every part of the page needs to know of the document.
import { STATUS_CODES } from 'node:http';
import type { JsonObject } from '../openapi/json-schema.js';
import type { OperationView } from './reference-model.js';
import { exampleOf, refName, resolve } from './reference-schema.js';

/** Where the page sends requests and what it knows of the document. */
export interface OperationContext {
  readonly document: JsonObject;
  /** The document's server: `{base}/v<N>`. */
  readonly server: string;
  /** The portal's path, for links. */
  readonly prefix: string;
  /** The headers every answer carries, listed once at the end of the page rather than in each answer. */
  readonly commonHeaders: ReadonlySet<string>;
}

/** The operation's security requirements, or the document's when it has none of its own. */
export function securityOf(context: OperationContext, operation: JsonObject): JsonObject[] {
  return ((operation.security ?? context.document.security) as JsonObject[] | undefined) ?? [];
}

/** The SuppressedError branch of an answer is the suppress_response_codes variant, not what the example shows. */
const SUPPRESSED = 'SuppressedError';

/** The answer of the operation's success status (a POST's 201 first), with its JSON body. */
export function answerExample(context: OperationContext, view: OperationView): string {
  const { document } = context;
  const responses = (view.operation.responses ?? {}) as Record<string, unknown>;
  // A GET lists 201 too (a method=post override creates), but its own answer is the 200.
  const order = view.method === 'post' ? ['201', '200', '204'] : ['200', '201', '204'];
  const status = order.find((code) => code in responses) ?? Object.keys(responses)[0] ?? '200';
  const answer = resolve(document, responses[status]);
  const content = ((answer.content ?? {}) as Record<string, JsonObject>)['application/json'];
  const schema = pickBranch((content?.schema ?? undefined) as JsonObject | undefined);
  const answerBody =
    mediaExample(content) ??
    (schema && refName(schema) !== SUPPRESSED ? exampleOf(document, schema, 'answer') : undefined);
  const head = `HTTP/1.1 ${status} ${STATUS_CODES[Number(status)] ?? ''}`;
  if (answerBody === undefined) return head;
  return `${head}\nContent-Type: application/json\n\n${JSON.stringify(answerBody, null, 2)}`;
}

/** A media type's own example: `example`, or the value of the first of its `examples`. */
function mediaExample(entry: JsonObject | undefined): unknown {
  if (entry?.example !== undefined) return entry.example;
  const first = Object.values((entry?.examples ?? {}) as Record<string, JsonObject>)[0];
  return first?.value;
}

function pickBranch(schema: JsonObject | undefined): JsonObject | undefined {
  const union = (schema?.anyOf ?? schema?.oneOf) as JsonObject[] | undefined;
  return union?.find((member) => refName(member) !== SUPPRESSED) ?? schema;
}

/** The example body of a request: the document's example, or one made from its schema. */
export function requestExample(context: OperationContext, body: JsonObject): string | undefined {
  const json = ((body.content ?? {}) as Record<string, JsonObject>)['application/json'];
  if (!json) return undefined;
  const value = mediaExample(json) ?? exampleOf(context.document, (json.schema ?? {}) as JsonObject, 'request');
  return JSON.stringify(value, null, 2);
}

/** A curl line: path parameters and required query parameters filled with examples, the token as $TOKEN. */
export function curlOf(context: OperationContext, view: OperationView, body: JsonObject): string {
  let path = view.path;
  const query = new URLSearchParams();
  for (const parameter of view.parameters) {
    const value = parameter.example ?? exampleOf(context.document, (parameter.schema ?? {}) as JsonObject, 'request');
    if (parameter.in === 'path') path = path.replace(`{${String(parameter.name)}}`, encodeURIComponent(String(value)));
    else if (parameter.in === 'query' && parameter.required) query.append(String(parameter.name), String(value));
  }
  const url = `${context.server}${path}${query.size > 0 ? `?${query}` : ''}`;
  const lines = [`curl${view.method === 'get' ? '' : ` -X ${view.method.toUpperCase()}`} ${shellQuote(url)}`];
  if (securityOf(context, view.operation).length > 0) lines.push(`-H "Authorization: Bearer $TOKEN"`);
  const example = view.operation.requestBody ? requestExample(context, body) : undefined;
  if (example !== undefined)
    lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(JSON.parse(example)))}`);
  return lines.join(' \\\n  ');
}

/** Single quotes for a POSIX shell, a quote inside closed, escaped and reopened. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}
