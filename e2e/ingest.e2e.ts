import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

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

test.describe('ingest', () => {
  test('uploads an MP4 and its VTT, follows processing, and a word click seeks the video', async ({ page }) => {
    test.setTimeout(PROCESSING_TIMEOUT_MS + 30_000);
    await page.goto('/');
    await page.getByLabel('MP4 video file').setInputFiles(demoFile('demo.mp4'));
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
    await expect(video).toHaveAttribute('src', /\/stream\/processed\?t=/);

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
  });

  test('enters from a provider sandbox link and lands on the video without the token in the address', async ({ page }) => {
    test.setTimeout(PROCESSING_TIMEOUT_MS + 30_000);
    const sandbox = process.env['PROVIDER_SANDBOX_URL'];
    if (!sandbox) throw new Error('PROVIDER_SANDBOX_URL is not set: the e2e setup must start the provider sandbox');

    await page.goto(`${sandbox.replace(/\/+$/, '')}/open?video=demo`);
    await expect(page).toHaveURL(new RegExp(`^http://localhost:4200/editor/${UUID}$`), { timeout: 30_000 });
    expect(page.url()).not.toContain('token');

    const stored = await page.evaluate(() => sessionStorage.getItem('wordcut_session_token'));
    expect(stored).toBeTruthy();

    await waitForTranscript(page);
    await expect(page.getByTestId('video-title')).not.toBeEmpty();
    await expect(page.getByTestId('session-error')).toHaveCount(0);
  });
});
