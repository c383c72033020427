import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The gateway's schema `library`: videos, their transcripts and the transcripts' words.
 * Words are rows (not one JSON document) so a word edit costs the words it touches, not the
 * whole transcript: see docs/adr/0007-video-library.md.
 */
export class CreateLibrary1763700000000 implements MigrationInterface {
  name = 'CreateLibrary1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "library"."videos" (
        "id" uuid PRIMARY KEY,
        "title" text NOT NULL,
        "original_name" text NOT NULL,
        "filename" text NOT NULL,
        "processed_filename" text,
        "last_processed_at" timestamptz,
        "status" text NOT NULL CHECK ("status" IN ('uploaded','processing','completed','failed')),
        "vtt_progress" real NOT NULL DEFAULT 0 CHECK ("vtt_progress" >= 0 AND "vtt_progress" <= 100),
        "vtt_method" text NOT NULL,
        "vtt_error" text,
        "video_changed" boolean NOT NULL DEFAULT false,
        "vtt_changed" boolean NOT NULL DEFAULT false,
        "word_byword_changed" boolean NOT NULL DEFAULT false,
        "language_code" text NOT NULL,
        "duration" double precision,
        "width" int,
        "height" int,
        "has_audio" boolean,
        "file_size" bigint,
        "media_version" text NOT NULL DEFAULT 'original',
        "original_key" text,
        "playback_key" text,
        "vtt_key" text,
        "word_byword_key" text,
        "waveform_key" text,
        "probe" jsonb,
        "ingest_job_id" text,
        "ingest_source" jsonb,
        "owner_id" text,
        "provider_session_id" text UNIQUE,
        "provider_video_id" text,
        "provider_is_clone" boolean NOT NULL DEFAULT false,
        "provider_main_video_upload_status" text NOT NULL DEFAULT 'none',
        "provider_vtt_upload_status" text NOT NULL DEFAULT 'none',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "videos_created_idx" ON "library"."videos" ("created_at" DESC)`);
    await q.query(`CREATE INDEX "videos_status_idx" ON "library"."videos" ("status")`);
    await q.query(`
      CREATE TABLE "library"."transcripts" (
        "id" uuid PRIMARY KEY,
        "video_id" uuid NOT NULL UNIQUE REFERENCES "library"."videos"("id") ON DELETE CASCADE,
        "version" int NOT NULL DEFAULT 1 CHECK ("version" > 0),
        "language_code" text NOT NULL,
        "word_count" int NOT NULL DEFAULT 0,
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE "library"."transcript_words" (
        "transcript_id" uuid NOT NULL REFERENCES "library"."transcripts"("id") ON DELETE CASCADE,
        "word_order" int NOT NULL,
        "text" text NOT NULL,
        "start_s" double precision NOT NULL,
        "end_s" double precision NOT NULL CHECK ("end_s" >= "start_s"),
        "confidence" real NOT NULL,
        "group_number" int NOT NULL,
        "is_filler" boolean NOT NULL DEFAULT false,
        CONSTRAINT "transcript_words_pk" PRIMARY KEY ("transcript_id", "word_order") DEFERRABLE INITIALLY DEFERRED
      )`);
    await q.query(`CREATE INDEX "transcript_words_filler_idx" ON "library"."transcript_words" ("transcript_id", "word_order") WHERE "is_filler"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "library"."transcript_words"`);
    await q.query(`DROP TABLE "library"."transcripts"`);
    await q.query(`DROP TABLE "library"."videos"`);
  }
}
