import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Provider webhooks apply in event order: each item keeps the time (and id) of the newest event
 * applied to it, and an older one (a late delivery, or a failed one retried from the dashboard) is
 * recorded as `skipped` instead of overwriting the newer state.
 */
export class AddWebhookOrder1764600000000 implements MigrationInterface {
  name = 'AddWebhookOrder1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "export"."export_items" ADD COLUMN "webhook_event_at" timestamptz NULL, ADD COLUMN "webhook_event_id" text NULL`);
    await q.query(`ALTER TABLE "export"."webhook_events" DROP CONSTRAINT "webhook_events_status_check"`);
    await q.query(`ALTER TABLE "export"."webhook_events" ADD CONSTRAINT "webhook_events_status_check" CHECK ("status" IN ('received','applied','failed','skipped'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE "export"."webhook_events" SET "status" = 'applied' WHERE "status" = 'skipped'`);
    await q.query(`ALTER TABLE "export"."webhook_events" DROP CONSTRAINT "webhook_events_status_check"`);
    await q.query(`ALTER TABLE "export"."webhook_events" ADD CONSTRAINT "webhook_events_status_check" CHECK ("status" IN ('received','applied','failed'))`);
    await q.query(`ALTER TABLE "export"."export_items" DROP COLUMN "webhook_event_id", DROP COLUMN "webhook_event_at"`);
  }
}
