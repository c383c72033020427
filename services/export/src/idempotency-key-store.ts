/**
 * Idempotency keys (`export.idempotency_keys`): the only code that runs SQL on that table. A key
 * answers with its first result for IDEMPOTENCY_KEY_TTL_HOURS; every call runs inside the
 * caller's transaction (the user's lock, ExportStore.withUserLock).
 */
import type { ExportCreated } from '@wordcut/contracts';
import type { EntityManager } from 'typeorm';

export interface StoredIdempotencyKey {
  fingerprint: string;
  jobId: string;
  response: ExportCreated;
}

/** How long an idempotency key answers with its first result (Stripe keeps them 24 h too). */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;

const K = `"export"."idempotency_keys"`;

export class IdempotencyKeyStore {
  /** Drops the user's expired idempotency keys (opportunistic: done under the lock on every create). */
  async purgeExpiredKeys(tx: EntityManager, userId: string): Promise<void> {
    await tx.query(`DELETE FROM ${K} WHERE user_id = $1 AND created_at < now() - make_interval(hours => $2)`, [userId, IDEMPOTENCY_KEY_TTL_HOURS]);
  }

  async findKey(tx: EntityManager, userId: string, key: string): Promise<StoredIdempotencyKey | null> {
    const rows = (await tx.query(
      `SELECT fingerprint, job_id, response FROM ${K} WHERE user_id = $1 AND key = $2 AND created_at >= now() - make_interval(hours => $3)`,
      [userId, key, IDEMPOTENCY_KEY_TTL_HOURS],
    )) as Array<{ fingerprint: string; job_id: string; response: ExportCreated }>;
    const r = rows[0];
    return r ? { fingerprint: r.fingerprint, jobId: r.job_id, response: r.response } : null;
  }

  async insertKey(tx: EntityManager, userId: string, key: string, fingerprint: string, jobId: string, response: ExportCreated): Promise<void> {
    await tx.query(
      `INSERT INTO ${K} (user_id, key, fingerprint, job_id, response) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, job_id = EXCLUDED.job_id, response = EXCLUDED.response, created_at = now()`,
      [userId, key, fingerprint, jobId, JSON.stringify(response)],
    );
  }
}
