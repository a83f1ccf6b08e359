// The format suffixes in the document (SPEC §2): each path again as /dogs.json and /dogs.xml, answering that format
// only; the path without a suffix negotiates by Accept, each media type with its own schema.
import { capitalize, type JsonObject } from './json-schema.js';

const JSON_TYPE = 'application/json';
const XML_TYPE = 'application/xml';

type Format = 'json' | 'xml';

/**
 * The path item under its three paths. Without a suffix, each media type keeps its own schema (XML's root is `<dog>`,
 * JSON's the envelope); a generated client's union of them is harmless, as it takes the envelope it asked for by key.
 */
export function formatPaths(path: string, item: JsonObject): Record<string, JsonObject> {
  return {
    [path]: item,
    [`${path}.json`]: { description: suffixed('json'), ...mapOperations(item, 'Json', (r) => only(r, 'json')) },
    [`${path}.xml`]: { description: suffixed('xml'), ...mapOperations(item, 'Xml', (r) => only(r, 'xml')) },
  };
}

/** What a suffix path is, and that the service reads the suffix in any case (`.XML` is `.xml`). */
function suffixed(format: Format): string {
  return (
    `The path without its suffix, answering only ${format.toUpperCase()} whatever Accept says. The suffix is read ` +
    `in any case: .${format.toUpperCase()} is .${format}.`
  );
}

/** Every response component with a body, once per format, for the suffix paths: `BadRequestJson`, `BadRequestXml`. */
export function formatResponseComponents(components: Record<string, JsonObject>): Record<string, JsonObject> {
  const result: Record<string, JsonObject> = {};
  for (const [name, response] of Object.entries(components)) {
    if (!response.content) continue;
    for (const format of ['json', 'xml'] as const) result[`${name}${capitalize(format)}`] = only(response, format);
  }
  return result;
}

function mapOperations(item: JsonObject, suffix: string, map: (response: JsonObject) => JsonObject): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(item)) {
    if (key === 'parameters') {
      result[key] = value;
      continue;
    }
    const operation = value as JsonObject;
    const responses = Object.entries(operation.responses as Record<string, JsonObject>).map(([status, response]) => [
      status,
      map(response),
    ]);
    result[key] = {
      ...operation,
      operationId: `${String(operation.operationId)}${suffix}`,
      responses: Object.fromEntries(responses),
    };
  }
  return result;
}

function mapContent(response: JsonObject, map: (content: Record<string, JsonObject>) => JsonObject): JsonObject {
  const content = response.content as Record<string, JsonObject> | undefined;
  return content ? { ...response, content: map(content) } : response;
}

/** The response in one format: a reference to a shared error answer becomes its one-format copy. */
function only(response: JsonObject, format: Format): JsonObject {
  const pointer = response.$ref;
  if (typeof pointer === 'string')
    return pointer.endsWith('/NotModified') ? response : { $ref: pointer + capitalize(format) };
  const type = format === 'json' ? JSON_TYPE : XML_TYPE;
  return mapContent(response, (content) => ({ [type]: content[type] }));
}
