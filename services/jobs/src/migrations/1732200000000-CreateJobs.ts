import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateJobs1732200000000 implements MigrationInterface {
  name = 'CreateJobs1732200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "jobs"."jobs" (
        "id" text PRIMARY KEY,
        "kind" text NOT NULL,
        "status" text NOT NULL CHECK ("status" IN ('pending','processing','completed','error','cancelled')),
        "progress" real NOT NULL DEFAULT 0 CHECK ("progress" >= 0 AND "progress" <= 100),
        "message" text NOT NULL DEFAULT '',
        "estimated_time_remaining" real,
        "error" text,
        "input" jsonb NOT NULL,
        "result" jsonb,
        "attempts" int NOT NULL DEFAULT 0,
        "correlation_id" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "completed_at" timestamptz
      )`);
    await q.query(`CREATE INDEX "jobs_status_idx" ON "jobs"."jobs" ("status", "created_at")`);
    await q.query(`
      CREATE TABLE "jobs"."job_transitions" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "job_id" text NOT NULL REFERENCES "jobs"."jobs"("id") ON DELETE CASCADE,
        "from_status" text,
        "to_status" text NOT NULL,
        "worker" text,
        "at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "job_transitions_job_idx" ON "jobs"."job_transitions" ("job_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "jobs"."job_transitions"`);
    await q.query(`DROP TABLE "jobs"."jobs"`);
  }
}
