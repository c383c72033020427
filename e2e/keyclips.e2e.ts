import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { DEMO_MEDIA_DIR, INGEST_TIMEOUT_MS, authHeaders, expectToastShown, openDemoVideo, recordToasts, toastTitled, waitForTranscript } from './editor-helpers';

/**
 * KeyClips against the real backend, on the synthesised lesson (lesson.mp4 + lesson.vtt of
 * tools/media/generate-test-media.sh, 320x180): open the panel, find the moments, the cards and the
 * first one selected, the preview looping inside the moment, 9:16 zoomed and panned by drag and
 * keys, the export, its clip in Generated Clips rendered at 1080x1920; axe on the panel and the Guide.
 */

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Rendering a 9:16 clip of a 15-60 s moment. */
const CLIP_TIMEOUT_MS = 120_000;

/** WCAG 2.1 A and AA violations inside `include` (axe-core), as readable lines. */
async function accessibilityViolations(page: Page, include: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).include(include).analyze();
  return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

async function uploadLesson(page: Page): Promise<string> {
  await page.goto('/');
  await page.getByLabel('MP4 video file').setInputFiles(path.join(DEMO_MEDIA_DIR, 'lesson.mp4'));
  await page.getByLabel('VTT subtitle file').setInputFiles(path.join(DEMO_MEDIA_DIR, 'lesson.vtt'));
  await page.getByRole('button', { name: 'Upload and open' }).click();
  await expect(page).toHaveURL(new RegExp(`/editor/${UUID}$`), { timeout: 30_000 });
  await waitForTranscript(page);
  return new URL(page.url()).pathname.split('/').pop()!;
}

const mediaTime = (video: Locator) => video.evaluate((el) => (el as HTMLVideoElement).currentTime);
const mediaPaused = (video: Locator) => video.evaluate((el) => (el as HTMLVideoElement).paused);

test.describe('KeyClips', () => {
  test('finds moments, previews one in a loop, exports it 9:16 zoomed and panned, and the clip is rendered', async ({ page }) => {
    test.setTimeout(INGEST_TIMEOUT_MS + CLIP_TIMEOUT_MS + 60_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    const videoId = await uploadLesson(page);

    await page.getByRole('toolbar', { name: 'Editor actions' }).getByRole('button', { name: 'Find Key Moments' }).click();
    const panel = page.getByRole('dialog', { name: 'KeyClips' });
    await expect(panel.getByRole('heading', { name: 'Discover Engaging Moments' })).toBeVisible();
    expect(await accessibilityViolations(page, '[data-testid="keyclips-panel"]')).toEqual([]);

    // find the moments: the cards, the first selected and previewed
    await panel.getByRole('button', { name: 'Find Key Moments' }).click();
    const cards = panel.getByTestId('keyclips-moment');
    await expect(cards.first()).toBeVisible({ timeout: 20_000 });
    expect(await cards.count()).toBeGreaterThanOrEqual(5);
    await expect(cards.first()).toHaveAttribute('data-selected', 'true');
    const moments = (await (await page.request.get(`/api/videos/${videoId}/key-moments`, { headers: await authHeaders(page) })).json()) as {
      moments: Array<{ id: string; title: string; startTime: number; endTime: number }>;
    };
    const first = moments.moments[0]!;
    await expect(panel.getByRole('heading', { level: 3, name: first.title })).toBeVisible();
    await cards.first().getByRole('button', { name: 'Why this moment?' }).click();
    await expect(cards.first().getByRole('listitem').last()).toContainText('whole sentences');
    await page.screenshot({ path: test.info().outputPath('keyclips-1440.png') });
    expect(await accessibilityViolations(page, '[data-testid="keyclips-panel"]')).toEqual([]);

    // the preview is cued at the start; played near the end, it pauses back at the start
    const video = panel.getByTestId('keyclips-video');
    await expect.poll(() => mediaTime(video), { timeout: 10_000 }).toBeCloseTo(first.startTime, 1);
    await video.evaluate((el, t) => {
      (el as HTMLVideoElement).currentTime = t;
    }, first.endTime - 0.6);
    await panel.getByTestId('keyclips-play').click();
    await expect.poll(() => mediaPaused(video), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => mediaTime(video)).toBeCloseTo(first.startTime, 1);
    await expect(panel.getByTestId('keyclips-play')).toHaveText('Play');

    // 9:16, zoomed to 1.5, panned by a drag and an arrow key
    await panel.getByRole('button', { name: /^9:16/ }).click();
    await expect(panel.getByTestId('keyclips-export')).toHaveText('Export 9:16 (Reframed)');
    await panel.getByRole('button', { name: 'Zoom in' }).click();
    await panel.getByRole('slider', { name: 'Zoom' }).fill('1.5');
    await expect(panel.getByText('1.5x', { exact: true })).toBeVisible();
    await expect(panel.getByTestId('keyclips-upscale-warning')).toBeVisible();
    const frame = panel.getByTestId('keyclips-frame');
    const box = (await frame.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2 + 20, { steps: 5 });
    await page.mouse.up();
    const offsetX = Number(await frame.getAttribute('data-offset-x'));
    const offsetY = Number(await frame.getAttribute('data-offset-y'));
    expect(offsetX).toBeLessThan(0);
    expect(offsetY).toBeLessThan(0);
    expect(await mediaPaused(video)).toBe(true); // a drag is not a click
    await frame.focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(async () => Number(await frame.getAttribute('data-offset-y'))).toBeLessThan(offsetY);
    const panned = { offsetX: Number(await frame.getAttribute('data-offset-x')), offsetY: Number(await frame.getAttribute('data-offset-y')) };
    await page.screenshot({ path: test.info().outputPath('keyclips-framed-1440.png') });
    expect(await accessibilityViolations(page, '[data-testid="keyclips-panel"]')).toEqual([]);

    // export: the request, the toast, the panel closes, the clip in Generated Clips
    const exported = page.waitForResponse((r) => r.url().includes(`/api/key-moments/${first.id}/export`) && r.request().method() === 'POST');
    await panel.getByTestId('keyclips-export').click();
    const response = await exported;
    expect(response.status()).toBe(202);
    const body = response.request().postDataJSON() as { aspectRatio: string; reframe: { offsetX: number; offsetY: number; scale: number } };
    expect(body.aspectRatio).toBe('9:16');
    expect(body.reframe.scale).toBe(1.5);
    expect(body.reframe.offsetX).toBeCloseTo(panned.offsetX, 2);
    expect(body.reframe.offsetY).toBeCloseTo(panned.offsetY, 2);
    const clip = (await response.json()) as { id: string; width: number; height: number; mode: string };
    expect(clip).toMatchObject({ width: 1080, height: 1920, mode: 'crop' });
    await expect(toastTitled(page, 'Clip created')).toBeVisible();
    await expect(panel).toHaveCount(0);

    const item = page.getByTestId('generated-clips').locator(`[data-clip-id="${clip.id}"]`);
    await expect(item).toContainText(first.title.slice(0, 20));
    await expect(item).toHaveAttribute('data-status', 'completed', { timeout: CLIP_TIMEOUT_MS });
    const download = await page.request.get(`/api/clips/${clip.id}/download`, { headers: await authHeaders(page) });
    expect(download.status()).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'wordcut-e2e-keyclips-'));
    try {
      const file = path.join(dir, 'clip.mp4');
      writeFileSync(file, await download.body());
      const dims = execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file]).toString().trim();
      expect(dims).toBe('1080,1920');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the Guide explains KeyClips, passes axe, and Escape closes it before the panel', async ({ page }) => {
    test.setTimeout(INGEST_TIMEOUT_MS + 30_000);
    await page.setViewportSize({ width: 1024, height: 768 });
    await uploadLesson(page);
    await page.getByRole('toolbar', { name: 'Editor actions' }).getByRole('button', { name: 'Find Key Moments' }).click();
    const panel = page.getByRole('dialog', { name: 'KeyClips' });
    await panel.getByRole('button', { name: 'Find Key Moments' }).click();
    await expect(panel.getByTestId('keyclips-moment').first()).toBeVisible({ timeout: 20_000 });
    await page.screenshot({ path: test.info().outputPath('keyclips-1024.png') });
    expect(await accessibilityViolations(page, '[data-testid="keyclips-panel"]')).toEqual([]);
    // the Export button is on screen at 1024x768, and nothing covers it
    const exportButton = panel.getByTestId('keyclips-export');
    const box = (await exportButton.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(768);
    expect(box.x + box.width).toBeLessThanOrEqual(1024);
    expect(await exportButton.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
    })).toBe(true);
    // the engagement figure says what it is, from the keyboard too
    await panel.getByTestId('keyclips-engagement').first().focus();
    await expect(page.getByRole('tooltip')).toContainText('not a prediction of views');
    await page.keyboard.press('Tab');

    await panel.getByRole('button', { name: 'Guide' }).click();
    const guide = page.getByRole('dialog', { name: 'KeyClips Guide' });
    await expect(guide.getByRole('heading', { name: 'The five categories' })).toBeVisible();
    await expect(guide.getByRole('heading', { name: 'Engagement and “Why this moment?”' })).toBeAttached();
    await expect(guide.getByRole('button', { name: 'Close guide' })).toBeFocused();
    expect(await accessibilityViolations(page, '[data-testid="keyclips-guide"]')).toEqual([]);
    await page.screenshot({ path: test.info().outputPath('keyclips-guide-1024.png') });
    // Tab stays in the Guide while it is open
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="keyclips-guide"]'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(guide).toHaveCount(0);
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Guide' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
  });

  test('a moment of the provider’s video, exported as a clip, is published to the provider library', async ({ page }) => {
    test.setTimeout(CLIP_TIMEOUT_MS * 2 + 60_000);
    await recordToasts(page);
    const id = await openDemoVideo(page);
    const headers = await authHeaders(page);
    const found = await page.request.post(`/api/videos/${id}/find-key-moments`, { headers });
    expect(found.status()).toBe(200);
    const [moment] = ((await found.json()) as { moments: Array<{ id: string; title: string }> }).moments;
    expect(moment).toBeDefined();
    const exported = await page.request.post(`/api/key-moments/${moment!.id}/export`, { headers, data: { aspectRatio: '1:1', mode: 'reframe' } });
    expect(exported.status()).toBe(202);
    const clip = (await exported.json()) as { id: string; name: string };
    await expect
      .poll(async () => ((await (await page.request.get(`/api/videos/${id}/clips`, { headers })).json()) as Array<{ id: string; status: string }>).find((c) => c.id === clip.id)?.status, { timeout: CLIP_TIMEOUT_MS })
      .toBe('completed');
    await page.reload();
    await waitForTranscript(page);

    const publish = page.getByRole('button', { name: 'Publish changes' });
    await expect(publish).toBeEnabled({ timeout: 15_000 });
    await publish.click();
    const dialog = page.getByRole('dialog', { name: 'Publish changes' });
    await dialog.getByRole('checkbox', { name: /select all/i }).uncheck();
    await dialog.getByRole('checkbox', { name: clip.name }).check();
    await dialog.getByRole('button', { name: 'Publish 1 Item(s)' }).click();
    await expectToastShown(page, 'Export Started');
    const progress = page.getByRole('dialog').filter({ hasText: /Exporting to|Export Complete/ });
    await expect(progress.getByRole('heading', { name: 'Export Complete' })).toBeVisible({ timeout: CLIP_TIMEOUT_MS });

    const sandbox = (process.env['PROVIDER_SANDBOX_URL'] ?? '').replace(/\/+$/, '');
    const library = (await (await page.request.get(`${sandbox}/api/library`)).json()) as { videos: Array<{ kind: string; title: string; files: { video?: { bytes: number } } }> };
    const published = library.videos.find((v) => v.kind === 'clip' && v.title === clip.name);
    expect(published?.files.video?.bytes).toBeGreaterThan(1000);
  });
});
