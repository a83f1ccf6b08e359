// Idempotency-Key records on either backend: one claim rule, one lifetime, one sweep policy, as SQL each backend runs
// (SPEC §4).
import { NowAndThen } from '../now-and-then.js';
import type { KeyAnswer } from '../plan/write-plan.js';
import type { IdempotencyClaim, IdempotencyKey, TenantScope } from './storage.js';

/** How long a key is remembered, and after how long a claim that never completed is taken over. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_ABANDONED_MS = 60 * 1000;
/** How often a process deletes expired records: they are harmless meanwhile, since a claim takes them over. */
const SWEEP_EVERY_MS = 60 * 1000;

/**
 * The statements, in PostgreSQL's placeholders; each `$n` appears once and in order, so SQLite
 * runs the same text with `?` for each. The claim inserts the record, or takes over one that
 * expired or whose request was abandoned (same body, no answer, older than a minute), and
 * returns a row only then: a concurrent claim of the same key waits for the first one's row
 * (PostgreSQL) or its transaction (SQLite) and then changes nothing.
 */
export const IDEMPOTENCY_SQL = {
  claim: `INSERT INTO idempotency_keys AS k (tenant_id, client_id, key, fingerprint, answer, created_at)
  VALUES ($1, $2, $3, $4, NULL, $5)
  ON CONFLICT (tenant_id, client_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, answer = NULL, created_at = excluded.created_at
  WHERE k.created_at < $6 OR (k.answer IS NULL AND k.fingerprint = excluded.fingerprint AND k.created_at <= $7)
  RETURNING 1`,
  read: 'SELECT fingerprint, answer FROM idempotency_keys WHERE tenant_id = $1 AND client_id = $2 AND key = $3',
  /** The answer, written in the transaction of the write it answers. */
  answer: 'UPDATE idempotency_keys SET answer = $1 WHERE tenant_id = $2 AND client_id = $3 AND key = $4',
  release: 'DELETE FROM idempotency_keys WHERE tenant_id = $1 AND client_id = $2 AND key = $3 AND answer IS NULL',
  sweep: 'DELETE FROM idempotency_keys WHERE created_at < $1',
} as const;

/** A stored record as `read` returns it: its fingerprint and answer (null while the request runs). */
export type KeyRecord = readonly [fingerprint: string, answer: string | null];

/** When a process sweeps expired keys: one instance per storage, whichever the backend. */
export class IdempotencyPolicy {
  private readonly sweeps = new NowAndThen(SWEEP_EVERY_MS);

  /** The cutoff of a sweep due at `time` (before a claim), at most once a minute per process; else undefined. */
  sweepBefore(time: number): number | undefined {
    return this.sweeps.due(time) ? time - IDEMPOTENCY_TTL_MS : undefined;
  }
}

export function claimParams(scope: TenantScope, key: IdempotencyKey, time: number): unknown[] {
  return [
    scope.tenantId,
    key.clientId,
    key.key,
    key.fingerprint,
    time,
    time - IDEMPOTENCY_TTL_MS,
    time - IDEMPOTENCY_ABANDONED_MS,
  ];
}

/** The parameters of `read` and `release`. */
export function keyParams(scope: TenantScope, key: IdempotencyKey): unknown[] {
  return [scope.tenantId, key.clientId, key.key];
}

export function answerParams(scope: TenantScope, { key, answer }: KeyAnswer): unknown[] {
  return [answer, scope.tenantId, key.clientId, key.key];
}

/**
 * What a claim that took nothing over found: a record of another request, its answer, or a claim
 * still running; undefined when the record was released meanwhile (claim again).
 */
export function verdictOf(record: KeyRecord | undefined, key: IdempotencyKey): IdempotencyClaim | undefined {
  if (!record) return undefined;
  const [fingerprint, answer] = record;
  if (fingerprint !== key.fingerprint) return { state: 'mismatch' };
  if (answer !== null) return { state: 'replay', answer };
  return { state: 'pending' };
}
