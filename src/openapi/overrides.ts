// Method override in the document (SPEC §3): a GET or POST that carries out another method answers as that one does,
// and a path that offers PUT or DELETE but no POST still takes a POST that carries the override.
import { withOverrideAnswers } from './alternatives.js';
import { ref, type JsonObject } from './json-schema.js';

type PathOperations = Record<string, JsonObject>;

const TARGETS = ['post', 'put', 'delete'] as const;

function takesMethod(operation: JsonObject): boolean {
  return (operation.parameters as JsonObject[]).some(
    (parameter) => parameter.$ref === ref('parameters', 'method').$ref,
  );
}

/** `item` with the override carrier (if the path needs one) and every overriding operation's extra answers. */
export function withOverrides(item: PathOperations, words: string): PathOperations {
  const result: PathOperations = { ...item };
  const changes = TARGETS.filter((verb) => verb !== 'post' && item[verb]);
  if (!item.post && changes.length > 0) result.post = carrier(item, words);
  for (const verb of ['get', 'post'] as const) {
    const operation = result[verb];
    if (!operation || !takesMethod(operation)) continue;
    let widened = operation;
    for (const target of TARGETS) {
      if (target !== verb && item[target]) widened = withOverrideAnswers(widened, item[target]);
    }
    result[verb] = widened;
  }
  return result;
}

/** POST on a path without its own POST: only as the carrier of a PUT or DELETE (X-HTTP-Method-Override or method). */
function carrier(item: PathOperations, words: string): JsonObject {
  const base = (item.put ?? item.delete)!;
  const methods = ['put', 'delete'].filter((verb) => item[verb]).map((verb) => verb.toUpperCase());
  const operation: JsonObject = {
    operationId: `override${words}`,
    summary: `${methods.join(' or ')} by POST (method override)`,
    description:
      `For clients that can send only GET and POST: a POST with X-HTTP-Method-Override (or the method parameter, or ` +
      `a method field in a form body) naming ${methods.join(' or ')} is carried out as that method and answers as ` +
      `it does. A POST without an override, or naming a method the path does not offer, is a 400 whose Allow ` +
      `header lists the methods of the path.`,
    tags: base.tags,
    parameters: [
      ref('parameters', 'X-HTTP-Method-Override'),
      ref('parameters', 'method'),
      ...(base.parameters as JsonObject[]),
    ],
    ...(item.put?.requestBody ? { requestBody: { ...(item.put.requestBody as JsonObject), required: false } } : {}),
    responses: base.responses,
    security: base.security,
  };
  if (item.put && item.delete) return withOverrideAnswers(operation, item.delete);
  return operation;
}
