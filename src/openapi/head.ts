// HEAD in the document: every GET answers HEAD too (Allow lists it), with GET's statuses and headers and no body.
import { capitalize, type JsonObject } from './json-schema.js';

/** `NotFound` → `NotFoundHead`: a shared error answer without its body, for HEAD. */
export function headResponseComponents(components: Record<string, JsonObject>): Record<string, JsonObject> {
  return Object.fromEntries(
    Object.entries(components)
      .filter(([, response]) => response.content)
      .map(([name, response]) => [`${name}Head`, withoutBody(response)]),
  );
}

function withoutBody(response: JsonObject): JsonObject {
  const { content: _content, ...rest } = response;
  return rest;
}

/** The HEAD of a GET: its statuses and headers, never a body, and no `method` (an override applies to GET or POST). */
export function headOf(get: JsonObject): JsonObject {
  const responses = Object.entries(get.responses as Record<string, JsonObject>).map(([status, response]) => {
    const pointer = response.$ref;
    if (typeof pointer === 'string')
      return [status, pointer.endsWith('/NotModified') ? response : { $ref: `${pointer}Head` }];
    return [status, withoutBody(response)];
  });
  return {
    ...get,
    operationId: `head${capitalize(String(get.operationId))}`,
    summary: `${String(get.summary)}: headers only`,
    description: `The status and headers GET answers (ETag, Link, X-Total-Count, …), without the body.`,
    parameters: (get.parameters as JsonObject[]).filter(
      (parameter) => parameter.$ref !== '#/components/parameters/method',
    ),
    responses: Object.fromEntries(responses),
  };
}
