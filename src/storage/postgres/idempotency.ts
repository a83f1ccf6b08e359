// Idempotency-Key records on PostgreSQL: one atomic upsert claims a key, however many nodes race for it (SPEC §4).
import {
  IDEMPOTENCY_ABANDONED_MS, IDEMPOTENCY_TTL_MS, type IdempotencyClaim, type IdempotencyKey, type TenantScope,
} from '../storage.js';
import { NowAndThen } from '../../now-and-then.js';
import type { Executor } from './connection.js';

/**
 * Inserts the claim, or takes over a record that expired or whose request was abandoned; a
 * concurrent claim of the same key waits for the first one's row and then changes nothing.
 */
const CLAIM = `INSERT INTO idempotency_keys AS k (tenant_id, client_id, key, fingerprint, answer, created_at)
  VALUES ($1, $2, $3, $4, NULL, $5)
  ON CONFLICT (tenant_id, client_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, answer = NULL, created_at = EXCLUDED.created_at
  WHERE k.created_at < $6 OR (k.answer IS NULL AND k.fingerprint = EXCLUDED.fingerprint AND k.created_at <= $7)
  RETURNING true`;
const READ = 'SELECT fingerprint, answer FROM idempotency_keys WHERE tenant_id = $1 AND client_id = $2 AND key = $3';
/** How often a node deletes expired records: they are harmless meanwhile, since a claim takes them over. */
const SWEEP_EVERY_MS = 60 * 1000;
/** Claims released again and again under our feet: the client is told to retry, as for a claim in progress. */
const ROUNDS = 5;

export class IdempotencyKeys {
  private readonly sweeps = new NowAndThen(SWEEP_EVERY_MS);

  constructor(private readonly db: Executor) {}

  async claim(scope: TenantScope, key: IdempotencyKey): Promise<IdempotencyClaim> {
    const time = Date.now();
    if (this.sweeps.due(time)) {
      await this.db.run('DELETE FROM idempotency_keys WHERE created_at < $1', [time - IDEMPOTENCY_TTL_MS]);
    }
    const id = [scope.tenantId, key.clientId, key.key];
    // A record released between the upsert and the read is claimed on the next round.
    for (let round = 0; round < ROUNDS; round += 1) {
      const taken = await this.db.rows(CLAIM, [...id, key.fingerprint, time, time - IDEMPOTENCY_TTL_MS, time - IDEMPOTENCY_ABANDONED_MS]);
      if (taken.length > 0) return { state: 'claimed' };
      const [row] = await this.db.rows<[string, string | null]>(READ, id);
      if (!row) continue;
      const [fingerprint, answer] = row;
      if (fingerprint !== key.fingerprint) return { state: 'mismatch' };
      if (answer !== null) return { state: 'replay', answer };
      return { state: 'pending' };
    }
    return { state: 'pending' };
  }

  async complete(scope: TenantScope, key: IdempotencyKey, answer: string): Promise<void> {
    await this.db.run('UPDATE idempotency_keys SET answer = $4 WHERE tenant_id = $1 AND client_id = $2 AND key = $3', [scope.tenantId, key.clientId, key.key, answer]);
  }

  async release(scope: TenantScope, key: IdempotencyKey): Promise<void> {
    await this.db.run('DELETE FROM idempotency_keys WHERE tenant_id = $1 AND client_id = $2 AND key = $3 AND answer IS NULL', [scope.tenantId, key.clientId, key.key]);
  }
}
