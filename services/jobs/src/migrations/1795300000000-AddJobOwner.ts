import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Render jobs belong to a video and a user: the columns let the jobs service answer "my jobs
 * of the last day" and "the jobs of this video" from an index, and check who may cancel a job.
 * Nullable: probe jobs have neither.
 */
export class AddJobOwner1795300000000 implements MigrationInterface {
  name = 'AddJobOwner1795300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "jobs"."jobs" ADD COLUMN "video_id" text, ADD COLUMN "user_id" text`);
    await q.query(`CREATE INDEX "jobs_user_created_idx" ON "jobs"."jobs" ("user_id", "created_at" DESC)`);
    await q.query(`CREATE INDEX "jobs_video_created_idx" ON "jobs"."jobs" ("video_id", "created_at" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "jobs"."jobs_video_created_idx"`);
    await q.query(`DROP INDEX "jobs"."jobs_user_created_idx"`);
    await q.query(`ALTER TABLE "jobs"."jobs" DROP COLUMN "user_id", DROP COLUMN "video_id"`);
  }
}
