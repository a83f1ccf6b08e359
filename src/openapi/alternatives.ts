// The answers an operation gives besides its own: those of the method an override carries out, and every error as a
// 200 under suppress_response_codes (SPEC §3). The operation's own document stays the first member of each union.
import { ref, type JsonObject } from './json-schema.js';

/** The error of SPEC §9 answered with 200 under suppress_response_codes=true, its status in response_code. */
export function suppressedErrorSchema(): JsonObject {
  return {
    type: 'object',
    allOf: [ref('schemas', 'Error')],
    required: ['response_code'],
    xml: { name: 'error' },
    description:
      'With suppress_response_codes=true, an error answered with status 200: the Error document, with the status ' +
      'it would have had in response_code.',
  };
}

type Responses = Record<string, JsonObject>;

/** What an answer that may come from a DELETE carried out by override says of its body. */
const EMPTY_AFTER_DELETE = 'After a DELETE (an override): no body.';

/** Each media type's schema becomes "this, or that": the first stays the type generated clients see. */
function widen(response: JsonObject, extra: (media: string) => JsonObject | undefined): JsonObject {
  const content = response.content as Record<string, JsonObject> | undefined;
  if (!content) return response;
  const widened: Record<string, JsonObject> = {};
  for (const [media, value] of Object.entries(content)) {
    const more = extra(media);
    const schema = value.schema as JsonObject;
    const members = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonObject[]) : [schema];
    const known = !more || members.some((member) => JSON.stringify(member) === JSON.stringify(more));
    widened[media] = known ? value : { ...value, schema: { anyOf: [...members, more] } };
  }
  return { ...response, content: widened };
}

/**
 * The success answers of `overridden` (the operation a `method` override carries out) join `operation`'s: a status it
 * lacks is added as it is, one it has admits the other's document too.
 */
export function withOverrideAnswers(operation: JsonObject, overridden: JsonObject): JsonObject {
  const responses: Responses = { ...(operation.responses as Responses) };
  for (const [status, response] of Object.entries(overridden.responses as Responses)) {
    if (!/^2/.test(status)) continue;
    const own = responses[status];
    if (!own) responses[status] = response;
    else if (!own.content)
      responses[status] = { ...response, description: `${own.description} ${response.description}` };
    else if (!response.content) {
      // A DELETE carried out by override answers an empty body: no schema can say "or nothing", the words do (once:
      // a POST carrier is widened by its path's DELETE twice).
      const said = String(own.description).includes(EMPTY_AFTER_DELETE);
      responses[status] = said ? own : { ...own, description: `${own.description} ${EMPTY_AFTER_DELETE}` };
    } else {
      const theirs = response.content as Record<string, JsonObject> | undefined;
      responses[status] = widen(own, (media) => {
        return theirs?.[media]?.schema as JsonObject | undefined;
      });
    }
  }
  return { ...operation, responses: sortedByStatus(responses) };
}

const BOTH = ['application/json', 'application/xml'];

/**
 * Under suppress_response_codes=true every answer is a 200 (SPEC §3): the 200 admits the suppressed error; an empty
 * 200 may carry one; a 201 is a 200 with the same document.
 */
export function withSuppressedAnswers(operation: JsonObject): JsonObject {
  const responses: Responses = { ...(operation.responses as Responses) };
  const suppressed = ref('schemas', 'SuppressedError');
  const created = responses['201'];
  let ok = responses['200'] ?? (created && { ...created, description: SUPPRESSED_CREATED });
  if (!ok) throw new Error(`${String(operation.operationId)} has no success answer`);
  // A 200 beside a 201 (a list whose GET creates by override, in v2) is the creation too when suppressed.
  if (responses['200'] && created) {
    const theirs = created.content as Record<string, JsonObject> | undefined;
    ok = widen(
      { ...ok, description: `${String(ok.description)} ${SUPPRESSED_CREATED}` },
      (media) => theirs?.[media]?.schema as JsonObject | undefined,
    );
  }
  const described = {
    ...ok,
    description: `${String(ok.description)} ${SUPPRESSED_ERROR}`,
    headers: suppressedHeaders(ok, created),
  };
  responses['200'] = ok.content
    ? widen(described, () => suppressed)
    : { ...described, content: Object.fromEntries(BOTH.map((media) => [media, { schema: suppressed }])) };
  return { ...operation, responses: sortedByStatus(responses) };
}

/**
 * The headers of a 200 under suppress_response_codes: its own, a creation's Location (not required: an error has
 * none), and the WWW-Authenticate and Retry-After of the 401 and 403 it may stand for.
 */
function suppressedHeaders(ok: JsonObject, created: JsonObject | undefined): JsonObject {
  const headers: JsonObject = { ...(ok.headers as JsonObject | undefined) };
  if (created && (created.headers as JsonObject | undefined)?.Location)
    headers.Location = {
      description: "On a creation, the new item's URL; an error has none.",
      schema: { type: 'string', format: 'uri' },
    };
  headers['WWW-Authenticate'] = ref('headers', 'WWW-Authenticate');
  headers['Retry-After'] = ref('headers', 'Retry-After');
  return headers;
}

const SUPPRESSED_ERROR = 'With suppress_response_codes=true, an error too (SuppressedError).';
const SUPPRESSED_CREATED = 'With suppress_response_codes=true: the new item, answered with 200 instead of 201.';

function sortedByStatus(responses: Responses): Responses {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
