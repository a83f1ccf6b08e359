// Counts answers by API operation, version and status (`http_requests_total`), with plain numbers on the hot path.
//
// Like the request histogram, each (operation, version) pair is resolved once into a counter of
// its own; a request then costs a Map lookup by status and an addition.
import type { FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import type { Endpoint } from './endpoint.js';
import { namedOverride } from './context.js';
import type { OperationDescriptor } from '../routes/descriptor.js';

interface Sample {
  readonly labels: { operation: string; version: string; status: string };
  value: number;
}

type Count = (status: number) => void;

const VERB_WORDS: Readonly<Record<string, string>> = {
  nestedList: 'list',
  nestedSearch: 'search',
  nestedCreate: 'create',
};

/** The stable name of an operation, from its descriptor: `dogs.read`, `owners.dogs.create`, `search`. */
function operationName(descriptor: OperationDescriptor): string {
  if (!('resource' in descriptor)) return descriptor.kind;
  const { kind, nesting } = descriptor;
  if (nesting) return `${nesting.parent.name}.${nesting.name}.${VERB_WORDS[kind] ?? kind}`;
  return `${descriptor.resource.name}.${kind}`;
}

export class RequestCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  private readonly samples: Sample[] = [];
  /**
   * Each (operation, version)'s series by status, shared by every counter of that pair: several routes count under
   * one pair (every endpoint's preflights, a path's POST and OPTIONS outside the API), and the text format allows a
   * series once per scrape (Prometheus drops a repeated one, and with it what it counted).
   */
  private readonly byPair = new Map<string, Map<number, Sample>>();

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** The counter of one operation in one version: its series (one per status) are created on first use. */
  counterFor(operation: string, version: string): Count {
    const pair = `${operation}\n${version}`;
    const byStatus = this.byPair.get(pair) ?? new Map<number, Sample>();
    this.byPair.set(pair, byStatus);
    return (status) => {
      let sample = byStatus.get(status);
      if (!sample) {
        sample = { labels: { operation, version, status: String(status) }, value: 0 };
        byStatus.set(status, sample);
        this.samples.push(sample);
      }
      sample.value += 1;
    };
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: Sample[] } {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: this.samples };
  }

  reset(): void {
    for (const sample of this.samples) sample.value = 0;
  }
}

/**
 * The counting of one API route (an endpoint in one version): by the operation carried out, so a
 * method override counts as the operation it names. A method the path does not offer counts as
 * `unoffered`, a CORS preflight as `preflight`.
 */
export function endpointCounter(
  counter: RequestCounter,
  endpoint: Endpoint,
  version: number,
): (request: FastifyRequest, status: number) => void {
  const label = String(version);
  const byVerb: Record<string, Count> = {};
  for (const [verb, operation] of Object.entries(endpoint.operations))
    if (operation) byVerb[verb] = counter.counterFor(operationName(operation.descriptor), label);
  const unoffered = counter.counterFor('unoffered', label);
  const preflight = counter.counterFor('preflight', label);
  return (request, status) => {
    const method = request.method;
    const verb =
      method === 'GET' || method === 'POST' ? (overrideOf(request) ?? method) : method === 'HEAD' ? 'GET' : method;
    // Every API path answers CORS preflights (http/cors.ts): an OPTIONS is one.
    (byVerb[verb] ?? (method === 'OPTIONS' ? preflight : unoffered))(status);
  };
}

/** The method a GET or POST names instead of its own, as parseIntent reads it, upper-cased. */
function overrideOf(request: FastifyRequest): string | undefined {
  const named = namedOverride(request);
  return typeof named === 'string' ? named.toUpperCase() : undefined;
}
