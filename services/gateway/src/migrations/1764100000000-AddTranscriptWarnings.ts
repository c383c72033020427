import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What the ingest skipped in the caption file (line and reason), answered with the transcript. */
export class AddTranscriptWarnings1764100000000 implements MigrationInterface {
  name = 'AddTranscriptWarnings1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "library"."transcripts" ADD COLUMN "warnings" jsonb NOT NULL DEFAULT '[]'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "library"."transcripts" DROP COLUMN "warnings"`);
  }
}
