import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Browser, Page } from '@playwright/test';
import { E2E_SHELL_URL } from './ports';

/**
 * Ingest through the editor against the real backend: the legacy upload form (demo.mp4 +
 * demo.vtt, made by `npm run media`) and the provider entry (`?token=` from the sandbox).
 * Needs legacy upload enabled on the gateway and PROVIDER_SANDBOX_URL set by the setup.
 */

const MEDIA_DIR = process.env['E2E_DEMO_MEDIA_DIR'] ?? path.resolve(__dirname, '../.data/test-media');
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Upload, VTT parsing and waveform of a ~30 s video. */
const PROCESSING_TIMEOUT_MS = 90_000;

function demoFile(name: 'demo.mp4' | 'demo.vtt'): string {
  const file = path.join(MEDIA_DIR, name);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run media\` first`);
  return file;
}

/** Waits for the transcript of a processed video and returns its words. */
async function waitForTranscript(page: Page) {
  const words = page.getByTestId('transcript-word');
  await expect(words.first()).toBeVisible({ timeout: PROCESSING_TIMEOUT_MS });
  await expect(page.getByTestId('vtt-processing')).toHaveCount(0);
  return words;
}

/** WCAG 2.1 A and AA violations of what is on screen (axe-core), as readable lines. */
async function accessibilityViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** A second person in their own browser context, with a WordCut session of their own. */
async function stranger(browser: Browser): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/');
  await page.evaluate(async () => {
    const res = await fetch('/api/auth/session', { method: 'POST' });
    localStorage.setItem('wordcut_gateway_session', await res.text());
  });
  return { page, close: () => context.close() };
}

test.describe('ingest', () => {
  test('uploads an MP4 and its VTT, follows processing, and a word click seeks the video', async ({ page, browser }) => {
    test.setTimeout(PROCESSING_TIMEOUT_MS + 60_000);
    await page.goto('/');
    await expect(page.getByTestId('upload-form')).toBeVisible();
    expect(await accessibilityViolations(page, '[data-testid="upload-form"]')).toEqual([]);
    // no transcription service in this stack: the form says a subtitle file is needed, and holds to it
    await expect(page.getByTestId('upload-hint')).toContainText('a subtitle file is needed, as transcription is not set up here');
    await page.getByLabel('MP4 video file').setInputFiles(demoFile('demo.mp4'));
    await page.getByRole('button', { name: 'Upload and open' }).click();
    await expect(page.getByTestId('upload-form-error')).toContainText('Please select both MP4 video and VTT subtitle files.');
    await page.getByLabel('VTT subtitle file').setInputFiles(demoFile('demo.vtt'));
    await page.getByRole('button', { name: 'Upload and open' }).click();

    await expect(page).toHaveURL(new RegExp(`/editor/${UUID}$`), { timeout: 30_000 });
    await expect(page.getByTestId('video-title')).toContainText('demo');

    const words = await waitForTranscript(page);
    expect(await words.count()).toBeGreaterThan(10);
    await expect(page.getByTestId('waveform-canvas')).toBeVisible();
    await expect(page.getByTestId('waveform-canvas')).toHaveAttribute('data-peaks', /^[1-9]\d*$/);
    await expect(page.getByTestId('footer-vtt-status')).toContainText('VTT:');

    const video = page.getByTestId('video-player');
    await expect(video).toHaveAttribute('src', /\/stream\/processed\?st=[^&]+&t=/);

    // a word well into the video, so the seek is a real move
    const word = words.nth(Math.min(12, (await words.count()) - 1));
    const start = Number(await word.getAttribute('data-start'));
    expect(start).toBeGreaterThan(1);
    await word.click();
    await expect
      .poll(() => video.evaluate((el) => (el as HTMLVideoElement).currentTime), { timeout: 5_000 })
      .toBeGreaterThan(start - 0.25);
    const now = await video.evaluate((el) => (el as HTMLVideoElement).currentTime);
    expect(Math.abs(now - start)).toBeLessThan(0.5);

    // the uploader owns it: their session survives a reload, and the player's source is signed for them
    const id = new URL(page.url()).pathname.split('/').pop()!;
    await page.reload();
    await waitForTranscript(page);
    await expect(video).toHaveAttribute('src', /\/stream\/processed\?st=[^&]+&t=/);

    // someone else, in their own browser, finds nothing at that address
    const other = await stranger(browser);
    try {
      await other.page.goto(`/editor/${id}`);
      const card = other.page.getByTestId('video-unavailable');
      await expect(card).toBeVisible();
      await expect(card).toContainText('Video not found');
      await expect(other.page.getByTestId('transcript-word')).toHaveCount(0);
      expect(await accessibilityViolations(other.page, '[data-testid="video-unavailable"]')).toEqual([]);
      const token = await other.page.evaluate(() => (JSON.parse(localStorage.getItem('wordcut_gateway_session')!) as { token: string }).token);
      for (const path of [`/api/videos/${id}`, `/api/videos/${id}/transcript`, `/api/videos/${id}/stream/processed`]) {
        expect((await other.page.request.get(path, { headers: { authorization: `Bearer ${token}` } })).status(), path).toBe(404);
      }
      // and without any identity, nothing at all
      expect((await other.page.request.get(`/api/videos/${id}`)).status()).toBe(401);
    } finally {
      await other.close();
    }
  });

  test('a caption file with one bad cue among good ones is brought in, and the editor says what was skipped, once', async ({ page }) => {
    test.setTimeout(PROCESSING_TIMEOUT_MS + 60_000);
    // demo.vtt with a cue of malformed timing after its header block
    const lines = readFileSync(demoFile('demo.vtt'), 'utf8').split(/\r\n|\r|\n/);
    const firstBlank = lines.indexOf('');
    const bad = ['00:00:00..000 --> 00:00:01.000', 'a cue no browser would show', ''];
    lines.splice(firstBlank + 1, 0, ...bad);
    const badLine = firstBlank + 2;
    await page.goto('/');
    await page.getByLabel('MP4 video file').setInputFiles(demoFile('demo.mp4'));
    await page.getByLabel('VTT subtitle file').setInputFiles({ name: 'demo-with-a-bad-cue.vtt', mimeType: 'text/vtt', buffer: Buffer.from(lines.join('\n')) });
    await page.getByRole('button', { name: 'Upload and open' }).click();
    await expect(page).toHaveURL(new RegExp(`/editor/${UUID}$`), { timeout: 30_000 });
    const words = await waitForTranscript(page);
    expect(await words.count()).toBeGreaterThan(10);

    const notice = page.getByTestId('caption-warnings');
    await expect(notice).toContainText('1 caption line was skipped or repaired');
    await notice.getByRole('button', { name: 'Show details' }).click();
    await expect(notice.getByRole('listitem')).toHaveText([new RegExp(`^Cue at line ${badLine} skipped: .*00:00:00\\.\\.000`)]);
    expect(await accessibilityViolations(page, '[data-testid="caption-warnings"]')).toEqual([]);
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toHaveCount(0);
    await page.reload();
    await waitForTranscript(page);
    await expect(page.getByTestId('caption-warnings')).toHaveCount(0);
  });

  test('enters from a provider sandbox link and lands on the video without the token in the address', async ({ page }) => {
    test.setTimeout(PROCESSING_TIMEOUT_MS + 30_000);
    const sandbox = process.env['PROVIDER_SANDBOX_URL'];
    if (!sandbox) throw new Error('PROVIDER_SANDBOX_URL is not set: the e2e setup must start the provider sandbox');

    await page.goto(`${sandbox.replace(/\/+$/, '')}/open?video=demo`);
    await expect(page).toHaveURL(new RegExp(`^${E2E_SHELL_URL}/editor/${UUID}$`), { timeout: 30_000 });
    expect(page.url()).not.toContain('token');

    const stored = await page.evaluate(() => sessionStorage.getItem('wordcut_session_token'));
    expect(stored).toBeTruthy();

    await waitForTranscript(page);
    await expect(page.getByTestId('video-title')).not.toBeEmpty();
    await expect(page.getByTestId('session-error')).toHaveCount(0);
  });
});
