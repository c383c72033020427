import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Edits become media (docs/adr/0008-edit-list-renders.md): a video's edit list (null = the
 * original as it is), the renders that produce its versions and clips (one active video render
 * per video, enforced by a partial unique index), and clips.
 */
export class CreateEdits1763800000000 implements MigrationInterface {
  name = 'CreateEdits1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "library"."videos"
      ADD COLUMN "edit_list" jsonb,
      ADD COLUMN "edit_version" int NOT NULL DEFAULT 0,
      ADD COLUMN "render_summary" jsonb,
      ADD COLUMN "source_playback_key" text`);
    await q.query(`
      CREATE TABLE "library"."renders" (
        "job_id" text PRIMARY KEY,
        "video_id" uuid NOT NULL REFERENCES "library"."videos"("id") ON DELETE CASCADE,
        "kind" text NOT NULL,
        "state" text NOT NULL CHECK ("state" IN ('active','applied','failed','cancelled')),
        "user_id" text,
        "base_edit_version" int NOT NULL,
        "base_edit" jsonb NOT NULL,
        "new_edit" jsonb NOT NULL,
        "clip_id" uuid,
        "error" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "finished_at" timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX "renders_one_active_per_video" ON "library"."renders" ("video_id") WHERE "state" = 'active' AND "kind" <> 'clip'`);
    await q.query(`CREATE INDEX "renders_video_idx" ON "library"."renders" ("video_id", "created_at" DESC)`);
    await q.query(`
      CREATE TABLE "library"."clips" (
        "id" uuid PRIMARY KEY,
        "video_id" uuid NOT NULL REFERENCES "library"."videos"("id") ON DELETE CASCADE,
        "name" text NOT NULL CHECK (length("name") BETWEEN 1 AND 200),
        "start_time" double precision NOT NULL,
        "end_time" double precision NOT NULL CHECK ("end_time" > "start_time"),
        "aspect_ratio" text NOT NULL,
        "reframe" jsonb,
        "status" text NOT NULL CHECK ("status" IN ('pending','processing','completed','failed')),
        "job_id" text NOT NULL,
        "output_key" text NOT NULL,
        "vtt_key" text NOT NULL,
        "error" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "clips_video_idx" ON "library"."clips" ("video_id", "created_at" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "library"."clips"`);
    await q.query(`DROP TABLE "library"."renders"`);
    await q.query(`ALTER TABLE "library"."videos" DROP COLUMN "edit_list", DROP COLUMN "edit_version", DROP COLUMN "render_summary", DROP COLUMN "source_playback_key"`);
  }
}
