import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateJobEvents1732200000001 implements MigrationInterface {
  name = 'CreateJobEvents1732200000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "analytics"."job_events" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "event_id" text NOT NULL UNIQUE,
        "subject" text NOT NULL,
        "job_id" text NOT NULL,
        "payload" jsonb NOT NULL,
        "received_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "job_events_received_idx" ON "analytics"."job_events" ("received_at")`);
    await q.query(`CREATE INDEX "job_events_job_idx" ON "analytics"."job_events" ("job_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "analytics"."job_events"`);
  }
}
