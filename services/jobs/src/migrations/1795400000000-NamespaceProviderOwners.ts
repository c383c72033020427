import { migrationProviderOwnerPrefix } from '@wordcut/provider';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Job owners under the owner ids of the gateway (its migration NamespaceProviderOwners1764500000000):
 * a provider user's jobs move from the token's bare `sub` to `provider:<issuer>:<sub>`, so "my jobs"
 * and cancelling keep finding them; gateway sessions' jobs keep `wordcut:<uuid>`.
 *
 * An owner not starting with `wordcut:` or `provider:` is a bare subject. The issuer is the
 * gateway's PROVIDER_JWT_ISSUER, required in production when there are rows to rename.
 */
export class NamespaceProviderOwners1795400000000 implements MigrationInterface {
  name = 'NamespaceProviderOwners1795400000000';

  async up(q: QueryRunner): Promise<void> {
    const bare = `user_id IS NOT NULL AND user_id <> '' AND NOT starts_with(user_id, 'wordcut:') AND NOT starts_with(user_id, 'provider:')`;
    const [{ n }] = (await q.query(`SELECT count(*)::int AS n FROM "jobs"."jobs" WHERE ${bare}`)) as [{ n: number }];
    if (n === 0) return;
    const prefix = migrationProviderOwnerPrefix(this.name);
    await q.query(`UPDATE "jobs"."jobs" SET user_id = $1 || user_id, input = ${withInputUser('$1 || user_id')} WHERE ${bare}`, [prefix]);
  }

  async down(q: QueryRunner): Promise<void> {
    const prefix = migrationProviderOwnerPrefix(this.name);
    await q.query(`UPDATE "jobs"."jobs" SET user_id = substr(user_id, $2), input = ${withInputUser('substr(user_id, $2)')} WHERE starts_with(user_id, $1)`, [prefix, prefix.length + 1]);
  }
}

/** The stored request's input with its userId (the owner it was recorded from) set to `to`. */
function withInputUser(to: string): string {
  return `CASE WHEN input->>'userId' = user_id THEN jsonb_set(input, '{userId}', to_jsonb(${to})) ELSE input END`;
}
