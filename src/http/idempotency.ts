// The Idempotency-Key stage of POST: a retry of the same request replays the first answer and creates nothing.
import { hash } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { Item } from '../resources/definition.js';
import type { IdempotencyKey, IdempotentWrite, Storage } from '../storage/storage.js';
import type { ApiContext } from './context.js';
import type { Outcome } from './respond.js';

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * A claimed key, handed to the POST's operation: its create commits the key's answer in the same
 * transaction as the item, so that no crash can leave the item without the answer a retry replays.
 */
export class ClaimedKey {
  /** Whether a write took the answer into its transaction; else the stage stores it after the operation. */
  private answered = false;

  constructor(readonly key: IdempotencyKey) {}

  /** What a create commits with its item: the outcome `outcomeOf` makes of the item, serialized. */
  answering(outcomeOf: (item: Item) => Outcome): IdempotentWrite {
    this.answered = true;
    return { key: this.key, answerFor: (item) => JSON.stringify(outcomeOf(item)) };
  }

  get answeredByWrite(): boolean {
    return this.answered;
  }
}

/** Runs a POST under its Idempotency-Key, if it has one (SPEC §4); the operation gets the claimed key. */
export async function runIdempotent(
  context: ApiContext,
  storage: Storage,
  run: (claimed?: ClaimedKey) => Promise<Outcome>,
): Promise<Outcome> {
  const header = context.idempotencyKey;
  if (header === undefined) return run();
  if (typeof header !== 'string' || !KEY.test(header)) {
    throw new ApiError(
      'idempotencyKeyInvalid',
      'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a fresh UUID per creation is a good ' +
        'key), given once.',
    );
  }
  const key: IdempotencyKey = { clientId: context.clientId, key: header, fingerprint: fingerprintOf(context) };
  const claim = await storage.claimIdempotencyKey(context.scope, key);
  switch (claim.state) {
    case 'mismatch':
      throw new ApiError(
        'idempotencyKeyReused',
        `The Idempotency-Key "${header}" was already used for a request with another body or path. Use a new key ` +
          `for a new creation.`,
      );
    case 'pending':
      throw new ApiError(
        'idempotencyInProgress',
        `A request with the Idempotency-Key "${header}" is still in progress. Retry in a moment to get its answer.`,
      );
    case 'replay':
      return { ...(JSON.parse(claim.answer) as Outcome), replayed: true };
    case 'claimed':
      break;
  }
  const claimed = new ClaimedKey(key);
  let outcome: Outcome;
  try {
    outcome = await run(claimed);
  } catch (error) {
    // Nothing was committed (a write that fails rolls its answer back too): a corrected retry may use the key.
    await storage.releaseIdempotencyKey(context.scope, key);
    throw error;
  }
  if (!claimed.answeredByWrite) await storage.completeIdempotencyKey(context.scope, key, JSON.stringify(outcome));
  return outcome;
}

/**
 * The same operation on the same path with the same fields, however they were encoded: a set of ids is the same as a
 * JSON array and as a form's comma-separated text (SPEC §1).
 */
function fingerprintOf(context: ApiContext): string {
  const input = context.input();
  const fields = Object.keys(input)
    .filter((name) => name !== 'access_token' && name !== 'suppress_response_codes')
    .sort();
  const path = context.path.replace(/\/+$/, '');
  const value = (name: string): unknown => {
    const sent = input[name];
    return Array.isArray(sent) ? sent.join(',') : sent;
  };
  const canonical = JSON.stringify([context.method, path, fields.map((name) => [name, value(name)])]);
  return hash('sha256', canonical, 'base64url');
}
