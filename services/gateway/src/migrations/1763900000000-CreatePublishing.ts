import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Publishing (docs/PUBLISHING.md): each clip remembers its upload to the provider (status and
 * the provider's video id), as the main video and its captions already do on library.videos.
 */
export class CreatePublishing1763900000000 implements MigrationInterface {
  name = 'CreatePublishing1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "library"."clips"
      ADD COLUMN "provider_upload_status" text NOT NULL DEFAULT 'none'
        CHECK ("provider_upload_status" IN ('none','pending','uploading','uploaded','failed')),
      ADD COLUMN "provider_video_id" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "library"."clips" DROP COLUMN "provider_upload_status", DROP COLUMN "provider_video_id"`);
  }
}
