import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The export schema (README.md "Data"): export jobs and their items, Stripe-style idempotency
 * keys, and the provider's webhook events (received ones, for de-duplication, and the ones that
 * could not be applied after every delivery, for the analytics dashboard to list and retry).
 */
export class CreateExport1764000000000 implements MigrationInterface {
  name = 'CreateExport1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "export"."export_jobs" (
        "id" text PRIMARY KEY,
        "user_id" text NOT NULL,
        "video_id" uuid NOT NULL,
        "session_id" text NOT NULL,
        "provider_video_id" text,
        "status" text NOT NULL CHECK ("status" IN ('queued','processing','completed','failed')),
        "progress" real NOT NULL DEFAULT 0 CHECK ("progress" >= 0 AND "progress" <= 100),
        "current_step" text NOT NULL DEFAULT 'Preparing export...',
        "estimated_completion" timestamptz,
        "request" jsonb NOT NULL,
        "caller" jsonb NOT NULL,
        "names" jsonb NOT NULL,
        "error" jsonb,
        "retry_of" text REFERENCES "export"."export_jobs"("id"),
        "render_job_id" text,
        "counts_toward_quota" boolean NOT NULL DEFAULT true,
        "run_seq" bigint,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "started_at" timestamptz,
        "finished_at" timestamptz
      )`);
    await q.query(`CREATE INDEX "export_jobs_user_created_idx" ON "export"."export_jobs" ("user_id", "created_at")`);
    await q.query(`CREATE INDEX "export_jobs_queued_idx" ON "export"."export_jobs" ("created_at") WHERE "status" = 'queued'`);
    await q.query(`CREATE INDEX "export_jobs_retry_of_idx" ON "export"."export_jobs" ("retry_of") WHERE "retry_of" IS NOT NULL`);
    await q.query(`
      CREATE TABLE "export"."export_items" (
        "job_id" text NOT NULL REFERENCES "export"."export_jobs"("id") ON DELETE CASCADE,
        "type" text NOT NULL CHECK ("type" IN ('main_video','vtt','word_by_word','clip')),
        "item_id" text NOT NULL,
        "position" int NOT NULL,
        "name" text NOT NULL,
        "status" text NOT NULL CHECK ("status" IN ('pending','uploading','uploaded','failed')),
        "bytes" bigint,
        "provider_video_id" text,
        "upload_id" text,
        "provider_confirmed" boolean NOT NULL DEFAULT false,
        "error" text,
        "attempts" int NOT NULL DEFAULT 0,
        PRIMARY KEY ("job_id", "type", "item_id")
      )`);
    await q.query(`CREATE INDEX "export_items_upload_idx" ON "export"."export_items" ("upload_id") WHERE "upload_id" IS NOT NULL`);
    await q.query(`
      CREATE TABLE "export"."idempotency_keys" (
        "user_id" text NOT NULL,
        "key" text NOT NULL,
        "fingerprint" text NOT NULL,
        "job_id" text NOT NULL REFERENCES "export"."export_jobs"("id") ON DELETE CASCADE,
        "response" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("user_id", "key")
      )`);
    await q.query(`CREATE INDEX "idempotency_keys_created_idx" ON "export"."idempotency_keys" ("created_at")`);
    await q.query(`
      CREATE TABLE "export"."webhook_events" (
        "event_id" text PRIMARY KEY,
        "type" text NOT NULL,
        "payload" jsonb NOT NULL,
        "received_at" timestamptz NOT NULL DEFAULT now(),
        "status" text NOT NULL DEFAULT 'received' CHECK ("status" IN ('received','applied','failed')),
        "attempts" int NOT NULL DEFAULT 0,
        "last_error" text
      )`);
    await q.query(`
      CREATE TABLE "export"."failed_webhooks" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "event_id" text NOT NULL,
        "type" text NOT NULL,
        "payload" jsonb NOT NULL,
        "error" text NOT NULL,
        "attempts" int NOT NULL,
        "failed_at" timestamptz NOT NULL DEFAULT now(),
        "retried_at" timestamptz
      )`);
    await q.query(`CREATE INDEX "failed_webhooks_failed_at_idx" ON "export"."failed_webhooks" ("failed_at" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "export"."failed_webhooks"`);
    await q.query(`DROP TABLE "export"."webhook_events"`);
    await q.query(`DROP TABLE "export"."idempotency_keys"`);
    await q.query(`DROP TABLE "export"."export_items"`);
    await q.query(`DROP TABLE "export"."export_jobs"`);
  }
}
