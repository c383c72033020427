import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateErrorLogs1764500000000 implements MigrationInterface {
  name = 'CreateErrorLogs1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "analytics"."error_logs" (
        "id" uuid PRIMARY KEY,
        "service" text NOT NULL,
        "severity" text NOT NULL CHECK ("severity" IN ('error','warn','fatal')),
        "message" text NOT NULL,
        "endpoint" text,
        "correlation_id" text,
        "created_at" timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX "error_logs_created_idx" ON "analytics"."error_logs" ("created_at" DESC, "id")`);
    await q.query(`CREATE INDEX "error_logs_severity_idx" ON "analytics"."error_logs" ("severity", "created_at" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "analytics"."error_logs"`);
  }
}
