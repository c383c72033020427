import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ownership and limits (docs/SECURITY.md): videos are looked up by owner, active renders are
 * counted per user, request counters per key and window back the rate limits, and a video's
 * last access drives the retention sweep.
 */
export class CreateOwnership1764000000000 implements MigrationInterface {
  name = 'CreateOwnership1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "videos_owner_idx" ON "library"."videos" ("owner_id")`);
    await q.query(`ALTER TABLE "library"."videos" ADD COLUMN "accessed_at" timestamptz NOT NULL DEFAULT now()`);
    await q.query(`CREATE INDEX "videos_accessed_idx" ON "library"."videos" ("accessed_at")`);
    await q.query(`CREATE INDEX "renders_active_user_idx" ON "library"."renders" ("user_id") WHERE "state" = 'active'`);
    await q.query(`
      CREATE TABLE "library"."rate_limits" (
        "key" text NOT NULL,
        "window_start" timestamptz NOT NULL,
        "count" integer NOT NULL,
        PRIMARY KEY ("key", "window_start")
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "library"."rate_limits"`);
    await q.query(`DROP INDEX "library"."renders_active_user_idx"`);
    await q.query(`DROP INDEX "library"."videos_accessed_idx"`);
    await q.query(`ALTER TABLE "library"."videos" DROP COLUMN "accessed_at"`);
    await q.query(`DROP INDEX "library"."videos_owner_idx"`);
  }
}
