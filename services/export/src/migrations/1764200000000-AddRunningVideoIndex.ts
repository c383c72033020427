import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One export of a video at a time: every create looks for the video's queued or processing job
 * (a second one would upload the same video to the provider twice, racing). A partial index keeps
 * that lookup to the few unfinished jobs however many finished ones the table holds.
 */
export class AddRunningVideoIndex1764200000000 implements MigrationInterface {
  name = 'AddRunningVideoIndex1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "export_jobs_video_running_idx" ON "export"."export_jobs" ("video_id") WHERE "status" IN ('queued', 'processing')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "export"."export_jobs_video_running_idx"`);
  }
}
