import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { Messaging } from '@wordcut/messaging';
import { createLogger } from '@wordcut/platform';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '@wordcut/provider';
import { LOCAL_ANALYTICS_PASSWORD } from '../tools/stack/stack';
import { NATS_URL } from '../tools/testing/env';
import { E2E_PORTS } from './ports';
import { DEMO_MEDIA_DIR, INGEST_TIMEOUT_MS } from './editor-helpers';

/** Serious and critical WCAG 2.1 A/AA violations on screen (axe-core), as readable lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Uploads the demo talk as `name` under a WordCut session of its own; answers the video id once it is ready. */
async function uploadVideo(request: APIRequestContext, name: string): Promise<{ id: string; token: string }> {
  const session = (await (await request.post('/api/auth/session')).json()) as { token: string };
  const headers = { authorization: `Bearer ${session.token}` };
  const res = await request.post('/api/videos/upload', {
    headers,
    multipart: {
      video: { name, mimeType: 'video/mp4', buffer: readFileSync(path.join(DEMO_MEDIA_DIR, 'demo.mp4')) },
      vtt: { name: 'demo.vtt', mimeType: 'text/vtt', buffer: readFileSync(path.join(DEMO_MEDIA_DIR, 'demo.vtt')) },
    },
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/videos/${id}`, { headers })).json()) as { status: string }).status, { timeout: INGEST_TIMEOUT_MS })
    .toBe('completed');
  return { id, token: session.token };
}

test.describe('analytics dashboard', () => {
  test('an operator signs in, finds uploaded videos, deletes one with its preview, and signs out', async ({ page, request }, testInfo) => {
    test.setTimeout(INGEST_TIMEOUT_MS * 2 + 60_000);
    const tag = `e2e-analytics-${Date.now().toString(36)}`;
    const kept = await uploadVideo(request, `${tag}-kept.mp4`);
    const doomed = await uploadVideo(request, `${tag}-doomed.mp4`);

    await page.goto('/analytics');
    await expect(page.getByRole('heading', { name: 'Analytics Dashboard' })).toBeVisible();
    const password = page.getByLabel('Password');
    await password.fill('not the password');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Access denied: Incorrect password');
    expect(await seriousViolations(page)).toEqual([]);

    await password.fill(LOCAL_ANALYTICS_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('heading', { name: 'Video Management' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

    await page.getByLabel('Search').fill(tag);
    const rows = page.getByRole('rowheader');
    await expect(rows).toHaveText([new RegExp(`${tag}-doomed\\.mp4`), new RegExp(`${tag}-kept\\.mp4`)]);
    const doomedRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`${tag}-doomed`) }) });
    await expect(doomedRow).toContainText('Completed');
    await expect(doomedRow).toContainText(/\d+\.\d\d MB/);
    await expect(doomedRow).toContainText(/\b\d+:\d\d\b/);
    expect(await seriousViolations(page)).toEqual([]);
    for (const [width, height] of [
      [1440, 900],
      [1024, 768],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: testInfo.outputPath(`dashboard-${width}x${height}.png`), fullPage: true });
    }

    // the bulk bar appears on selection
    await page.getByRole('checkbox', { name: `Select ${tag}-kept.mp4` }).check();
    await expect(page.getByRole('region', { name: 'Bulk actions' })).toContainText('1 selected');
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await expect(page.getByRole('region', { name: 'Bulk actions' })).toHaveCount(0);

    // keyboard: the row's delete button opens the preview, which names what goes
    await page.getByRole('button', { name: `Delete ${tag}-doomed.mp4` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete video?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`${tag}-doomed.mp4`);
    await expect(dialog).toContainText('1 transcript');
    await expect(dialog).toContainText(/\d+ stored files?/);
    await expect(dialog).toContainText('This action cannot be undone.');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: testInfo.outputPath('delete-preview.png') });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(rows).toHaveText([new RegExp(`${tag}-kept\\.mp4`)]);
    expect((await request.get(`/api/videos/${doomed.id}`, { headers: { authorization: `Bearer ${doomed.token}` } })).status()).toBe(404);
    expect((await request.get(`/api/videos/${kept.id}`, { headers: { authorization: `Bearer ${kept.token}` } })).status()).toBe(200);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/analytics');
    await expect(page.getByLabel('Password')).toBeVisible();
  });

  test('every section shows our own figures; a failed webhook and its error log are read, retried and deleted', async ({ page, request }, testInfo) => {
    test.setTimeout(INGEST_TIMEOUT_MS + 120_000);
    // real work for the figures: a video, a cut rendered by a media worker
    const video = await uploadVideo(request, `e2e-figures-${Date.now().toString(36)}.mp4`);
    const auth = { authorization: `Bearer ${video.token}` };
    const cut = await request.post(`/api/videos/${video.id}/apply-cuts`, { headers: auth, data: { cuts: [{ start: 1, end: 1.5 }] } });
    expect(cut.status()).toBe(202);
    const { jobId } = (await cut.json()) as { jobId: string };
    await expect.poll(async () => ((await (await request.get(`/api/jobs/${jobId}/status`, { headers: auth })).json()) as { status: string }).status, { timeout: 90_000 }).toBe('completed');

    // a real dead letter: a render command the media workers cannot read is dead-lettered at once
    const bus = await Messaging.connect({ servers: NATS_URL, namespace: process.env['E2E_NATS_NAMESPACE']!, name: 'e2e-dashboard', logger: createLogger('e2e', 'silent') });
    await bus.publish('media.render', { jobId: `cut_e2e_${randomUUID()}`, broken: true });
    await bus.close();

    // a real failed webhook: signed, for an upload nobody made; three deliveries, then recorded
    const event = { id: `evt_${randomUUID()}`, type: 'upload.completed', createdAt: new Date().toISOString(), data: { sessionId: 'e2e', uploadId: `missing-${randomUUID()}`, kind: 'vtt', providerVideoId: 'talk' } };
    const raw = JSON.stringify(event);
    const hook = await request.post(`http://127.0.0.1:${E2E_PORTS.export}/webhooks/provider`, {
      headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signWebhook(process.env['E2E_WEBHOOK_SECRET']!, raw, Math.floor(Date.now() / 1000)) },
      data: raw,
    });
    expect(hook.status()).toBe(202);

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/analytics');
    await page.getByLabel('Password').fill(LOCAL_ANALYTICS_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();

    await expect(page.getByTestId('section-feature-status')).toContainText('Enabled');
    await expect(page.getByTestId('queue-health')).toHaveText(/healthy/i);
    await expect(page.getByTestId('section-system')).toContainText(process.version);
    await expect(page.getByTestId('section-queue-config')).toContainText('jetstream');
    // the dead letter reaches the figures (refetched every 30 s; a reload asks at once)
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('dlq-count')).toHaveText(/^[1-9]/, { timeout: 3000 });
    }).toPass({ timeout: 60_000 });
    await expect(page.getByTestId('section-work-queue')).toContainText('After 3 failed retries');
    await expect(page.getByTestId('dlq-advice')).toHaveText('Review DLQ for failed jobs');
    await expect(page.getByTestId('worker-invocations')).not.toHaveText(/^0\b/);
    await expect(page.getByTestId('section-workers')).toContainText('Estimated cost');
    await expect(page.getByTestId('section-provider')).toBeVisible();
    await expect(page.getByTestId('events-metrics')).toContainText('jobs.completed');

    // error logs: the media worker's dead letter and the export service's failed webhook, by severity
    const logs = page.getByTestId('section-error-logs');
    await expect(async () => {
      await page.reload();
      await expect(logs.getByTestId('error-log-row').filter({ hasText: 'provider webhook failed for good' })).toHaveCount(1, { timeout: 3000 });
    }).toPass({ timeout: 60_000 });
    await expect(logs.getByTestId('error-log-row').filter({ hasText: 'message dead-lettered' }).first()).toBeVisible();
    await logs.getByLabel('Severity').selectOption('fatal');
    await expect(logs).toContainText('No error logs found');
    await logs.getByLabel('Severity').selectOption('error');

    // the failed webhook: one row open at a time, a retry that really runs and fails again, then deleted
    const hooks = page.getByTestId('section-failed-webhooks');
    const row = hooks.getByTestId('webhook-row').filter({ hasText: event.data.uploadId });
    await expect(row).toBeVisible();
    await row.getByTestId('webhook-toggle').focus();
    await page.keyboard.press('Enter');
    const details = hooks.getByTestId('webhook-details');
    await expect(details).toContainText(event.data.uploadId);
    await expect(details).toContainText('Token available for automatic retry');
    await expect(details).toContainText('/webhooks/provider');
    expect(await seriousViolations(page)).toEqual([]);
    for (const [width, height] of [
      [1440, 900],
      [1024, 768],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: testInfo.outputPath(`figures-${width}x${height}.png`), fullPage: true });
    }
    await row.getByTestId('webhook-retry').click();
    await expect(page.getByText('Webhook Retry Failed', { exact: true })).toBeVisible();
    await expect(hooks.getByTestId('webhook-latest-error')).toContainText(event.data.uploadId);

    await row.getByRole('checkbox', { name: /^Select failed webhook/ }).check();
    await hooks.getByRole('button', { name: 'Delete selected' }).click();
    const confirm = page.getByRole('dialog', { name: /Delete 1 failed webhook/ });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(confirm).toHaveCount(0);
    await expect(hooks.getByTestId('webhook-row').filter({ hasText: event.data.uploadId })).toHaveCount(0);

    const logRow = logs.getByTestId('error-log-row').filter({ hasText: 'provider webhook failed for good' });
    await logRow.getByRole('checkbox').check();
    await logs.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('dialog', { name: /Delete 1 error log/ }).getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(logRow).toHaveCount(0);
  });
});
