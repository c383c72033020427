import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { LOCAL_ANALYTICS_PASSWORD } from '../tools/stack/stack';
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
});
