// Walks an OpenAPI document into what the reference page shows: its operations by tag, each with its parameters
// resolved and its .json/.xml twins beside it, and the CORS preflights (OPTIONS) gathered in one table.
import type { JsonObject } from '../openapi/json-schema.js';
import { resolve } from './reference-schema.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of the document as the page names it. */
interface OperationRef {
  readonly id: string;
  readonly method: string;
  readonly path: string;
}

export interface OperationView extends OperationRef {
  readonly operation: JsonObject;
  /** The path item's and the operation's, resolved; the operation's win on the same name and place. */
  readonly parameters: readonly JsonObject[];
  /** The same operation at the path with a format suffix (filled in as the walk finds them). */
  readonly twins: Twin[];
}

/** An operation at a path with a format suffix, and what the suffix does (its path item's description). */
interface Twin extends OperationRef {
  readonly note: string;
}

interface TagGroup {
  readonly tag: string;
  readonly description: string;
  readonly operations: readonly OperationView[];
}

/** The preflights of one path and its twins: the methods they allow. */
interface PreflightRow {
  readonly path: string;
  readonly operations: readonly OperationRef[];
  readonly allow: string;
}

export interface ReferenceModel {
  readonly groups: readonly TagGroup[];
  /**
   * The first preflight, described once for all (they differ only in the methods they allow), with the parameters of
   * every preflight (a path parameter is on the paths that have it).
   */
  readonly preflight?: OperationView;
  readonly preflights: readonly PreflightRow[];
  /** The headers every answer of every operation but the preflights carries: the page lists them once. */
  readonly commonHeaders: ReadonlySet<string>;
}

const SUFFIX = /\.(json|xml)$/;

export function referenceModel(document: JsonObject): ReferenceModel {
  const paths = (document.paths ?? {}) as Record<string, JsonObject>;
  const byTag = new Map<string, OperationView[]>();
  const preflights = new Map<string, { operations: OperationRef[]; allow: string }>();
  let preflight: OperationView | undefined;
  const preflightParameters = new Map<string, JsonObject>();
  for (const [path, item] of Object.entries(paths)) {
    const plain = path.replace(SUFFIX, '');
    for (const method of METHODS) {
      const operation = item[method] as JsonObject | undefined;
      if (!operation) continue;
      const view = operationView(document, path, method, item, operation);
      if (method === 'options') {
        preflight ??= view;
        for (const parameter of view.parameters)
          preflightParameters.set(`${String(parameter.in)} ${String(parameter.name)}`, parameter);
        const row = preflights.get(plain) ?? { operations: [], allow: allowOf(document, operation) };
        row.operations.push(view);
        preflights.set(plain, row);
      } else if (plain === path || !(paths[plain]?.[method] as JsonObject | undefined)) {
        const tag = ((operation.tags as string[] | undefined) ?? ['other'])[0]!;
        byTag.set(tag, [...(byTag.get(tag) ?? []), view]);
      }
    }
  }
  attachTwins(document, paths, byTag);
  return {
    groups: orderedGroups(document, byTag),
    commonHeaders: commonHeaders(document, [...byTag.values()].flat()),
    preflight: preflight && { ...preflight, parameters: [...preflightParameters.values()] },
    preflights: [...preflights].map(([path, row]) => ({ path, ...row })),
  };
}

function operationView(
  document: JsonObject,
  path: string,
  method: string,
  item: JsonObject,
  operation: JsonObject,
): OperationView {
  const own = ((operation.parameters as unknown[] | undefined) ?? []).map((parameter) => resolve(document, parameter));
  const shared = ((item.parameters as unknown[] | undefined) ?? []).map((parameter) => resolve(document, parameter));
  const key = (parameter: JsonObject) => `${String(parameter.in)} ${String(parameter.name)}`;
  const ownKeys = new Set(own.map(key));
  // Path parameters first, as the path reads; then the rest in the document's order.
  const parameters = [...shared.filter((parameter) => !ownKeys.has(key(parameter))), ...own].sort(
    (a, b) => Number(b.in === 'path') - Number(a.in === 'path'),
  );
  const id = typeof operation.operationId === 'string' ? operation.operationId : `${method}-${path}`;
  return { id, method, path, operation, parameters, twins: [] };
}

function attachTwins(document: JsonObject, paths: Record<string, JsonObject>, byTag: Map<string, OperationView[]>) {
  const views = new Map([...byTag.values()].flat().map((view) => [`${view.method} ${view.path}`, view]));
  for (const [path, item] of Object.entries(paths)) {
    const plain = path.replace(SUFFIX, '');
    if (plain === path) continue;
    for (const method of METHODS) {
      const operation = item[method] as JsonObject | undefined;
      const main = views.get(`${method} ${plain}`);
      if (!operation || method === 'options' || !main) continue;
      const view = operationView(document, path, method, item, operation);
      main.twins.push({
        id: view.id,
        method,
        path,
        note: typeof item.description === 'string' ? item.description : '',
      });
    }
  }
}

function orderedGroups(document: JsonObject, byTag: Map<string, OperationView[]>): TagGroup[] {
  const tags = ((document.tags as JsonObject[] | undefined) ?? []).map((tag) => [tag.name, tag.description]);
  const described = new Map(tags as [string, string | undefined][]);
  const order = [...described.keys(), ...[...byTag.keys()].filter((tag) => !described.has(tag))];
  return order
    .filter((tag) => byTag.has(tag))
    .map((tag) => ({ tag, description: described.get(tag) ?? '', operations: byTag.get(tag)! }));
}

/** What a preflight allows, as its 200 answer's Allow example says; empty when the document does not say. */
function allowOf(document: JsonObject, operation: JsonObject): string {
  const answer = resolve(document, (operation.responses as JsonObject | undefined)?.['200']);
  const headers = (answer.headers ?? {}) as Record<string, JsonObject>;
  const allow = headers.Allow ? resolve(document, headers.Allow).example : undefined;
  return typeof allow === 'string' ? allow : '';
}

function commonHeaders(document: JsonObject, views: readonly OperationView[]): Set<string> {
  const answers = views.flatMap((view) => Object.values((view.operation.responses ?? {}) as JsonObject));
  const names = answers.map((answer) => Object.keys((resolve(document, answer).headers ?? {}) as JsonObject));
  const [first = [], ...rest] = names;
  return new Set(first.filter((name) => rest.every((others) => others.includes(name))));
}
