import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The provider's resumable upload session of an item being uploaded, so that a run redelivered
 * after a restart continues the upload instead of sending it again from byte 0: the session URI,
 * and the sha256 of the bytes it was started for (a redelivered run may be handed other bytes, e.g.
 * captions written again from an edited transcript, which must not continue that session).
 * Both are cleared when the item is uploaded or failed.
 */
export class AddUploadSession1764100000000 implements MigrationInterface {
  name = 'AddUploadSession1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "export"."export_items" ADD COLUMN "upload_session_uri" text, ADD COLUMN "upload_session_sha256" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "export"."export_items" DROP COLUMN "upload_session_sha256", DROP COLUMN "upload_session_uri"`);
  }
}
