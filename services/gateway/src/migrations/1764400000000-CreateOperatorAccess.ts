import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operator access and video deletion (docs/ANALYTICS.md): server-side operator sessions (only the
 * SHA-256 of the cookie's secret is stored, with the session's CSRF token) and the mark a
 * deletion leaves on a video until every row and object of it is gone.
 */
export class CreateOperatorAccess1764400000000 implements MigrationInterface {
  name = 'CreateOperatorAccess1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "library"."operator_sessions" (
        "id_hash" text PRIMARY KEY,
        "csrf_token" text NOT NULL,
        "client" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "expires_at" timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX "operator_sessions_expires_idx" ON "library"."operator_sessions" ("expires_at")`);
    await q.query(`ALTER TABLE "library"."videos" ADD COLUMN "deleting_at" timestamptz`);
    await q.query(`CREATE INDEX "videos_deleting_idx" ON "library"."videos" ("deleting_at") WHERE "deleting_at" IS NOT NULL`);
    await q.query(`CREATE INDEX "videos_owner_created_idx" ON "library"."videos" ("owner_id", "created_at" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "library"."videos_owner_created_idx"`);
    await q.query(`DROP INDEX "library"."videos_deleting_idx"`);
    await q.query(`ALTER TABLE "library"."videos" DROP COLUMN "deleting_at"`);
    await q.query(`DROP TABLE "library"."operator_sessions"`);
  }
}
