import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Key moments (docs/KEYMOMENTS.md): the moments of a video's current version, one row each (its id
 * is the moment's), kept per edit version, transcript version and the rules' parameters; they go
 * with their video.
 */
export class CreateKeyMoments1764300000000 implements MigrationInterface {
  name = 'CreateKeyMoments1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "library"."key_moments" (
        "id" uuid PRIMARY KEY,
        "video_id" uuid NOT NULL REFERENCES "library"."videos"("id") ON DELETE CASCADE,
        "edit_version" int NOT NULL,
        "transcript_version" int NOT NULL,
        "params" text NOT NULL,
        "position" int NOT NULL,
        "moment" jsonb NOT NULL,
        "source" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("video_id", "edit_version", "transcript_version", "params", "position")
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "library"."key_moments"`);
  }
}
