// The Idempotency-Key stage of POST: a retry of the same request replays the first answer and creates nothing.
import { hash } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { IdempotencyKey, Storage } from '../storage/storage.js';
import type { ApiContext } from './context.js';
import type { Outcome } from './respond.js';

const KEY = /^[\x21-\x7e]{1,255}$/;

/** Runs a POST under its Idempotency-Key, if it has one (SPEC §4). */
export async function runIdempotent(context: ApiContext, storage: Storage, run: () => Promise<Outcome>): Promise<Outcome> {
  const header = context.idempotencyKey;
  if (header === undefined) return run();
  if (typeof header !== 'string' || !KEY.test(header)) {
    throw new ApiError('idempotencyKeyInvalid', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a fresh UUID per creation is a good key), given once.');
  }
  const key: IdempotencyKey = { clientId: context.clientId, key: header, fingerprint: fingerprintOf(context) };
  const claim = await storage.claimIdempotencyKey(context.scope, key);
  switch (claim.state) {
    case 'mismatch':
      throw new ApiError('idempotencyKeyReused', `The Idempotency-Key "${header}" was already used for a request with another body or path. Use a new key for a new creation.`);
    case 'pending':
      throw new ApiError('idempotencyInProgress', `A request with the Idempotency-Key "${header}" is still in progress. Retry in a moment to get its answer.`);
    case 'replay':
      return { ...(JSON.parse(claim.answer) as Outcome), replayed: true };
    case 'claimed':
      break;
  }
  let outcome: Outcome;
  try {
    outcome = await run();
  } catch (error) {
    await storage.releaseIdempotencyKey(context.scope, key);
    throw error;
  }
  await storage.completeIdempotencyKey(context.scope, key, JSON.stringify(outcome));
  return outcome;
}

/** The same operation on the same path with the same fields, however they were encoded. */
function fingerprintOf(context: ApiContext): string {
  const input = context.input();
  const fields = Object.keys(input).filter((name) => name !== 'access_token' && name !== 'suppress_response_codes').sort();
  const path = context.path.replace(/\/+$/, '');
  const canonical = JSON.stringify([context.method, path, fields.map((name) => [name, input[name]])]);
  return hash('sha256', canonical, 'base64url');
}
