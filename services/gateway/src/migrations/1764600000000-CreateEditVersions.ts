import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A video's edit is a versioned document (docs/EDIT-VERSIONS.md): every render, revert and
 * restore makes or names a version (its edit list, its media, its transcript in storage); the
 * video points at its current one. Versions go with their video. The video also records what the
 * provider holds, so a revert after publishing offers the original for publishing.
 */
export class CreateEditVersions1764600000000 implements MigrationInterface {
  name = 'CreateEditVersions1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "library"."edit_versions" (
        "video_id" uuid NOT NULL REFERENCES "library"."videos"("id") ON DELETE CASCADE,
        "seq" int NOT NULL CHECK ("seq" >= 0),
        "kind" text NOT NULL,
        "job_id" text,
        "edit_list" jsonb,
        "playback_key" text,
        "media_version" text NOT NULL,
        "processed_filename" text,
        "duration" double precision,
        "render_summary" jsonb,
        "transcript_key" text NOT NULL,
        "transcript_hash" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("video_id", "seq")
      )`);
    await q.query(`ALTER TABLE "library"."videos" ADD COLUMN "current_version" int`);
    // what the provider's library holds of the video: the media version and transcript version last
    // uploaded there (null: nothing uploaded, it holds the original it was imported from)
    await q.query(`ALTER TABLE "library"."videos" ADD COLUMN "provider_media_version" text, ADD COLUMN "provider_captions_version" int`);
    // burned captions drawn from other words than the transcript has now (a word edit after the burn)
    await q.query(`ALTER TABLE "library"."videos" ADD COLUMN "captions_stale" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "library"."videos" DROP COLUMN "current_version", DROP COLUMN "provider_media_version", DROP COLUMN "provider_captions_version", DROP COLUMN "captions_stale"`);
    await q.query(`DROP TABLE "library"."edit_versions"`);
  }
}
