import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard retries failed webhooks: each record counts its retries, keeps the latest retry's
 * error and the time it was resolved; events keep their signature, masked, to show which delivery
 * it was.
 */
export class AddWebhookRetries1764500000000 implements MigrationInterface {
  name = 'AddWebhookRetries1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "export"."webhook_events" ADD COLUMN "signature_masked" text NULL`);
    await q.query(`ALTER TABLE "export"."failed_webhooks" ADD COLUMN "signature_masked" text NULL`);
    await q.query(`ALTER TABLE "export"."failed_webhooks" ADD COLUMN "retry_count" integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE "export"."failed_webhooks" ADD COLUMN "last_retry_error" text NULL`);
    await q.query(`ALTER TABLE "export"."failed_webhooks" ADD COLUMN "resolved_at" timestamptz NULL`);
    await q.query(`CREATE INDEX "export_jobs_created_idx" ON "export"."export_jobs" ("created_at")`);
    await q.query(`CREATE INDEX "webhook_events_received_idx" ON "export"."webhook_events" ("received_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "export"."webhook_events_received_idx"`);
    await q.query(`DROP INDEX "export"."export_jobs_created_idx"`);
    for (const c of ['resolved_at', 'last_retry_error', 'retry_count', 'signature_masked']) await q.query(`ALTER TABLE "export"."failed_webhooks" DROP COLUMN "${c}"`);
    await q.query(`ALTER TABLE "export"."webhook_events" DROP COLUMN "signature_masked"`);
  }
}
