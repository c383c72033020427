import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pause analyses (docs/SILENCE.md): one per video version, transcript version and the parameters
 * that change the answer; they go with their video.
 */
export class CreateSilenceAnalyses1764200000000 implements MigrationInterface {
  name = 'CreateSilenceAnalyses1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "library"."silence_analyses" (
        "video_id" uuid NOT NULL REFERENCES "library"."videos"("id") ON DELETE CASCADE,
        "edit_version" int NOT NULL,
        "transcript_version" int NOT NULL,
        "params" text NOT NULL,
        "analysis" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("video_id", "edit_version", "transcript_version", "params")
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "library"."silence_analyses"`);
  }
}
