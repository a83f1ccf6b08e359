// Describes an operation from its descriptor: the parameters, body and answers it declares, in the words of its kind.
import type { ResourceDef } from '../resources/definition.js';
import type {
  AnswerDescriptor,
  OperationDescriptor,
  ParameterDescriptor,
  ServiceOperationDescriptor,
} from '../routes/descriptor.js';
import { adoptionsProse } from './adoptions.js';
import { convertParameter, convertProse } from './convert-path.js';
import { ref, schemaNames, type JsonObject } from './json-schema.js';
import { requestBody, resourceProse } from './resource-operation-words.js';
import { answerResponse } from './responses.js';
import { searchProse } from './search.js';

/** The words of an operation; everything else in its description comes from its descriptor. */
export interface Prose {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tags: readonly string[];
  /** What the answer of each status holds (`created` for a creation's, whatever its status in the version). */
  readonly answers: Readonly<Partial<Record<200 | 'created', string>>>;
}

/** The words of the service-wide operations, typed by kind: a new kind cannot go undescribed. */
const SERVICE: Readonly<Record<ServiceOperationDescriptor['kind'], (defs: readonly ResourceDef[]) => Prose>> = {
  search: searchProse,
  adoptions: adoptionsProse,
  convert: convertProse,
};

/**
 * The operation (before security and the answers every operation shares), for the document of `version` over `defs`.
 */
export function describeOperation(
  descriptor: OperationDescriptor,
  version: number,
  defs: readonly ResourceDef[],
): JsonObject {
  const resource = 'resource' in descriptor ? descriptor.resource : undefined;
  const prose = 'resource' in descriptor ? resourceProse(descriptor, version) : SERVICE[descriptor.kind](defs);
  const operation: JsonObject = {
    operationId: prose.operationId,
    summary: prose.summary,
    description: prose.description,
    tags: [...prose.tags],
    parameters: descriptor.parameters.filter((parameter) => parameter.in !== 'path').map(parameterObject),
  };
  if (descriptor.body && resource) {
    const { schema, required } = descriptor.body;
    const lead = schema === 'create' ? `The new ${resource.singular}.` : 'The fields to change.';
    operation.requestBody = requestBody(resource, schemaNames(resource)[schema], required, lead);
  }
  operation.responses = Object.fromEntries(
    descriptor.answers.map((answer) => responseOf(answer, prose, resource, version)),
  );
  return operation;
}

/** A shared component by reference; the /convert parameters, which no other operation has, written in place. */
function parameterObject(parameter: ParameterDescriptor): JsonObject {
  if (parameter.kind === 'currency' || parameter.kind === 'amount') return convertParameter(parameter.name);
  return ref('parameters', parameter.component);
}

/** A creation answers 200 in v1 and 201 with Location in v2; a 304 is the shared NotModified answer. */
function responseOf(
  answer: AnswerDescriptor,
  prose: Prose,
  resource: ResourceDef | undefined,
  version: number,
): [string, JsonObject] {
  if (answer.document === 'not-modified') return [String(answer.status), ref('responses', 'NotModified')];
  const description = answer.status === 304 ? '' : prose.answers[answer.status];
  if (description === undefined) throw new Error(`no words for the ${answer.status} answer of ${prose.operationId}`);
  if (answer.status !== 'created')
    return [String(answer.status), answerResponse(answer.document, resource, description, answer.headers)];
  if (version >= 2) return ['201', answerResponse(answer.document, resource, description, answer.headers)];
  return [
    '200',
    answerResponse(
      answer.document,
      resource,
      description,
      answer.headers.filter((header) => header !== 'Location'),
    ),
  ];
}

/** The parameters of the path itself (`id`), shared by every operation on it. */
export function pathParameters(descriptor: OperationDescriptor): JsonObject[] {
  return descriptor.parameters
    .filter((parameter) => parameter.in === 'path')
    .map((parameter) => ref('parameters', parameter.component));
}
