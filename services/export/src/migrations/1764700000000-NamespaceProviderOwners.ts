import { migrationProviderOwnerPrefix } from '@wordcut/provider';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const J = `"export"."export_jobs"`;
const K = `"export"."idempotency_keys"`;

/**
 * Export jobs and idempotency keys under the owner ids of the gateway (its migration
 * NamespaceProviderOwners1764500000000): a provider user's rows move from the token's bare `sub`
 * to `provider:<issuer>:<sub>`, so quota counts and idempotency keys follow their owner.
 *
 * Only provider sessions export, so every owner not yet `provider:` is a bare subject, one shaped
 * like a gateway session (`wordcut:`) too, as in the gateway. The issuer is the gateway's
 * PROVIDER_JWT_ISSUER, required in production when there are rows to rename.
 */
export class NamespaceProviderOwners1764700000000 implements MigrationInterface {
  name = 'NamespaceProviderOwners1764700000000';

  async up(q: QueryRunner): Promise<void> {
    const bare = (c: string) => `NOT starts_with(${c}, 'provider:')`;
    const [{ n }] = (await q.query(`SELECT (SELECT count(*) FROM ${J} WHERE ${bare('user_id')}) + (SELECT count(*) FROM ${K} WHERE ${bare('user_id')}) AS n`)) as [{ n: string }];
    if (Number(n) === 0) return;
    const prefix = migrationProviderOwnerPrefix(this.name);
    await rename(q, bare, (c) => `$1 || ${c}`, [prefix]);
  }

  async down(q: QueryRunner): Promise<void> {
    const prefix = migrationProviderOwnerPrefix(this.name);
    await rename(q, (c) => `starts_with(${c}, $1)`, (c) => `substr(${c}, $2)`, [prefix, prefix.length + 1]);
  }
}

/** SQL over an owner column. */
type OwnerSql = (column: string) => string;

/** Sets each owner where `which` holds to `to`: on the jobs (and the caller stored with them) and on the keys. */
async function rename(q: QueryRunner, which: OwnerSql, to: OwnerSql, params: unknown[]): Promise<void> {
  await q.query(`UPDATE ${J} SET user_id = ${to('user_id')}, caller = jsonb_set(caller, '{userId}', to_jsonb(${to('user_id')})) WHERE ${which('user_id')}`, params);
  // a key already stored under the new id is the newer one: the old one gives way
  await q.query(`DELETE FROM ${K} k WHERE ${which('k.user_id')} AND EXISTS (SELECT 1 FROM ${K} n WHERE n.key = k.key AND n.user_id = ${to('k.user_id')})`, params);
  await q.query(`UPDATE ${K} SET user_id = ${to('user_id')} WHERE ${which('user_id')}`, params);
}
