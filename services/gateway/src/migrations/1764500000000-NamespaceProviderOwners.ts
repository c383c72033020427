import { migrationProviderOwnerPrefix } from '@wordcut/provider';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owner ids in namespaces that cannot collide (docs/SECURITY.md): a provider user's objects were
 * recorded under the token's bare `sub`, so a provider subject `wordcut:<uuid>` was the owner of
 * that gateway session's videos. Provider users now own as `provider:<issuer>:<sub>`
 * (providerOwnerId); gateway sessions keep `wordcut:<uuid>`.
 *
 * A stored owner is a provider subject unless it is a gateway session's id on a video that came
 * from the upload form (no provider session). The issuer is the gateway's PROVIDER_JWT_ISSUER:
 * the migration refuses to guess it when there are owners to rename and it is not set (outside a
 * local stack, whose sandbox issuer is the default).
 */
export class NamespaceProviderOwners1764500000000 implements MigrationInterface {
  name = 'NamespaceProviderOwners1764500000000';

  async up(q: QueryRunner): Promise<void> {
    const providerOwned = `owner_id IS NOT NULL AND owner_id <> '' AND (owner_id NOT LIKE 'wordcut:%' OR provider_session_id IS NOT NULL)`;
    const [{ n }] = (await q.query(`SELECT count(*)::int AS n FROM "library"."videos" WHERE ${providerOwned}`)) as [{ n: number }];
    if (n === 0) return;
    const prefix = migrationProviderOwnerPrefix(this.name);
    await q.query(`UPDATE "library"."videos" SET owner_id = $1 || owner_id WHERE ${providerOwned}`, [prefix]);
    // a render's user is the owner of its video (only owners edit)
    await q.query(`UPDATE "library"."renders" r SET user_id = v.owner_id FROM "library"."videos" v WHERE r.video_id = v.id AND r.user_id IS NOT NULL AND r.user_id <> v.owner_id`);
    // the hour's upload counters of provider users start over under their new ids
    await q.query(`DELETE FROM "library"."rate_limits" WHERE key LIKE 'upload:user:%' AND key NOT LIKE 'upload:user:wordcut:%'`);
  }

  async down(q: QueryRunner): Promise<void> {
    const prefix = migrationProviderOwnerPrefix(this.name);
    await q.query(`UPDATE "library"."videos" SET owner_id = substr(owner_id, $2) WHERE starts_with(owner_id, $1)`, [prefix, prefix.length + 1]);
    await q.query(`UPDATE "library"."renders" SET user_id = substr(user_id, $2) WHERE starts_with(user_id, $1)`, [prefix, prefix.length + 1]);
  }
}
