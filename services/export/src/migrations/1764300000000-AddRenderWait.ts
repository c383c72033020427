import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An export whose mutes need a render waits for that render's job event instead of polling:
 * `waiting_since` marks the wait (its own timeout, not the stalled-worker one), `render_rounds`
 * counts the renders it has waited for (a render superseded again and again ends the export).
 */
export class AddRenderWait1764300000000 implements MigrationInterface {
  name = 'AddRenderWait1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "export"."export_jobs" ADD COLUMN "waiting_since" timestamptz NULL`);
    await q.query(`ALTER TABLE "export"."export_jobs" ADD COLUMN "render_rounds" integer NOT NULL DEFAULT 0`);
    await q.query(`CREATE INDEX "export_jobs_waiting_render_idx" ON "export"."export_jobs" ("render_job_id") WHERE "waiting_since" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "export"."export_jobs_waiting_render_idx"`);
    await q.query(`ALTER TABLE "export"."export_jobs" DROP COLUMN "render_rounds"`);
    await q.query(`ALTER TABLE "export"."export_jobs" DROP COLUMN "waiting_since"`);
  }
}
