import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { DEMO_MEDIA_DIR, JOB_TIMEOUT_MS, authHeaders, editWord, fetchTranscript, fetchVideo, findPhrase, waitForJobToFinish, waitForTranscript } from './editor-helpers';

/**
 * Silence detection and removal, and Burn Captions, in Chromium against the real stack, on the
 * synthesised talk (tools/media/generate-test-media.sh: talk.mp4 with pauses of known position
 * and length, talk.vtt, talk.pauses.json). Each test uploads its own copy through the upload form.
 */

const run = promisify(execFile);
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const TEST_TIMEOUT_MS = 180_000;
/** The server keeps this much silence next to speech on each side of a removed pause (gateway default). */
const PADDING_S = 0.1;
/** Duration after the render may differ from the arithmetic by this much (frame snapping, AAC priming). */
const DURATION_TOLERANCE_S = 0.3;

interface TalkTruth {
  duration: number;
  pauses: Array<{ start: number; end: number; type: string }>;
}

function talkFile(name: string): string {
  const file = path.join(DEMO_MEDIA_DIR, name);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run media\` first`);
  return file;
}

const truth = (): TalkTruth => JSON.parse(readFileSync(talkFile('talk.pauses.json'), 'utf8')) as TalkTruth;

/** Uploads the talk through the upload form and waits for its transcript; returns the video id. */
async function uploadTalk(page: Page): Promise<string> {
  await page.goto('/');
  await page.getByLabel('MP4 video file').setInputFiles(talkFile('talk.mp4'));
  await page.getByLabel('VTT subtitle file').setInputFiles(talkFile('talk.vtt'));
  await page.getByRole('button', { name: 'Upload and open' }).click();
  await expect(page).toHaveURL(new RegExp(`/editor/${UUID}$`), { timeout: 30_000 });
  await waitForTranscript(page);
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** WCAG 2.1 A and AA violations inside `selector` (axe-core), as readable lines. */
async function accessibilityViolations(page: Page, selector: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).include(selector).analyze();
  return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

const player = (page: Page) => page.getByTestId('video-player');
const currentTime = (page: Page) => player(page).evaluate((el) => (el as HTMLVideoElement).currentTime);

/** Records the player's time on every animation frame into window.__silenceSamples. */
async function startSampling(page: Page) {
  await page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!;
    const w = window as unknown as { __silenceSamples: number[]; __sampling: boolean };
    w.__silenceSamples = [];
    w.__sampling = true;
    const frame = () => {
      if (!w.__sampling) return;
      if (!video.seeking && !video.paused) w.__silenceSamples.push(video.currentTime);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

async function stopSampling(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __silenceSamples: number[]; __sampling: boolean };
    w.__sampling = false;
    return w.__silenceSamples;
  });
}

/** Whether the page now asks before it is left (a cancelled beforeunload). */
const asksBeforeLeaving = (page: Page) =>
  page.evaluate(() => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });

/** Every text the silence overlay's message showed since the page loaded (window.__overlayMessages). */
async function recordOverlayMessages(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __overlayMessages: string[] };
    w.__overlayMessages = [];
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="silence-overlay-message"]')?.textContent ?? '';
      if (text && w.__overlayMessages[w.__overlayMessages.length - 1] !== text) w.__overlayMessages.push(text);
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/** The seconds process-silence removes for these pauses (padding kept next to speech, none at the media's ends). */
function removedSeconds(pauses: Array<{ start: number; end: number }>, duration: number): number {
  return pauses.reduce((total, p) => {
    const keep = Math.min(PADDING_S, (p.end - p.start) / 4);
    const start = p.start <= 0.1 ? p.start : p.start + keep;
    const end = p.end >= duration - 0.1 ? p.end : p.end - keep;
    return total + Math.max(0, end - start);
  }, 0);
}

/** The media the player now plays, saved to `file` (the player's URL is signed for this page's owner). */
async function savePlayerMedia(page: Page, file: string): Promise<void> {
  const src = await player(page).getAttribute('src');
  if (!src) throw new Error('the player has no source');
  const response = await page.request.get(new URL(src, page.url()).toString(), { headers: await authHeaders(page) });
  expect(response.ok(), `GET the player's media answered ${response.status()}`).toBe(true);
  await writeFile(file, await response.body());
}

/** The bottom quarter of the frame at `time` in grey (one byte a pixel): the caption band; the talk's background is dark there. */
async function bottomBand(file: string, time: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    ['-hide_banner', '-nostdin', '-v', 'error', '-ss', time.toFixed(2), '-i', file, '-frames:v', '1', '-vf', 'crop=iw:ih/4:0:ih*3/4,format=gray', '-f', 'rawvideo', '-'],
    { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

/** The brightest pixel (0..255) of the caption band at `time`. */
async function bottomBandMaxLuma(file: string, time: number): Promise<number> {
  let max = 0;
  for (const value of await bottomBand(file, time)) max = Math.max(max, value);
  return max;
}

/** The share of the caption band's pixels that differ by more than 64 levels between two files at `time`. */
async function bandDifference(a: string, b: string, time: number): Promise<number> {
  const [x, y] = await Promise.all([bottomBand(a, time), bottomBand(b, time)]);
  expect(x.length).toBe(y.length);
  let differ = 0;
  for (let k = 0; k < x.length; k++) if (Math.abs(x[k]! - y[k]!) > 64) differ++;
  return differ / x.length;
}

test.describe('silence removal and captions', () => {
  test.describe.configure({ timeout: TEST_TIMEOUT_MS });

  test('detects the pauses, toggles one, previews without it, removes them across a reload', { tag: '@playback' }, async ({ page }) => {
    await recordOverlayMessages(page);
    const id = await uploadTalk(page);
    const before = await fetchVideo(page, id);
    const talk = truth();

    const detect = page.getByRole('button', { name: 'Detect Silence' });
    await detect.click();
    const panel = page.getByTestId('silence-panel');
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('heading', { name: 'Speech Analysis' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('min-pause-slider')).toHaveValue('2');
    const rows = panel.getByTestId('silence-row');
    await expect(rows.first()).toBeVisible();

    // the dead air at the start, the pause after 'um' and the one after the question are found at the default threshold (or the speaker's lower one)
    const found = await rows.evaluateAll((els) =>
      els.map((el) => ({
        id: el.getAttribute('data-silence-id')!,
        start: Number(el.getAttribute('data-start')),
        end: Number(el.getAttribute('data-end')),
        decision: el.getAttribute('data-decision')!,
        type: el.querySelector('[data-testid="silence-type"]')!.textContent!.toLowerCase(),
      })),
    );
    for (const expected of talk.pauses.filter((p) => p.end - p.start >= 1.4)) {
      const match = found.find((f) => Math.abs(f.start - expected.start) < 0.05 && Math.abs(f.end - expected.end) < 0.05);
      expect(match, `pause ${expected.start}-${expected.end} found`).toBeTruthy();
      expect(match!.type).toBe(expected.type);
    }
    expect(found[0]!.decision).toBe('remove');
    await expect(rows.first().getByTestId('silence-reason')).toContainText('Dead air');
    expect(await accessibilityViolations(page, '[data-testid="silence-panel"]')).toEqual([]);

    // the help dialog, keyboard-closed, gives focus back to its button
    const help = panel.getByRole('button', { name: 'How Pause Detection Works' });
    await help.click();
    const dialog = page.getByTestId('pause-help');
    await expect(dialog.getByRole('heading', { name: 'How Pause Detection Works' })).toBeVisible();
    expect(await accessibilityViolations(page, '[data-testid="pause-help"]')).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(help).toBeFocused();

    // toggle: the question's dramatic pause (kept by default) is marked remove
    const dramatic = found.find((f) => f.type === 'dramatic')!;
    const dramaticRow = panel.locator(`[data-silence-id="${dramatic.id}"]`);
    expect(dramatic.decision).toBe('keep');
    await dramaticRow.getByTestId('silence-toggle').check();
    await expect(dramaticRow).toHaveAttribute('data-decision', 'remove');
    const marked = found.map((f) => (f.id === dramatic.id ? { ...f, decision: 'remove' } : f)).filter((f) => f.decision === 'remove');
    await expect(page.getByTestId('pending-silences-bar')).toContainText(`Process ${marked.length} Silence Segments`);
    await expect(page.getByTestId('silence-mark')).toHaveCount(marked.length);

    // preview: a row click plays into the pause, and the player jumps over it
    await player(page).evaluate((el) => ((el as HTMLVideoElement).muted = true));
    await startSampling(page);
    await dramaticRow.getByRole('button', { name: /^Preview/ }).click();
    await expect(page.getByTestId('silence-preview')).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThan(dramatic.end + 0.3);
    await player(page).evaluate((el) => (el as HTMLVideoElement).pause());
    const samples = await stopSampling(page);
    expect(samples.some((t) => t < dramatic.start), 'played up to the pause').toBe(true);
    const inside = samples.filter((t) => t > dramatic.start + 0.05 && t < dramatic.end - 0.05);
    expect(inside, 'no frame played inside the removed pause').toEqual([]);

    // close with Escape: focus back on Detect Silence
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(detect).toBeFocused();

    // process: the confirmation lists the pauses, then the overlay runs the job
    await page.getByTestId('pending-silences-bar').getByRole('button', { name: `Process ${marked.length} Silence Segments` }).click();
    const confirm = page.getByTestId('confirm-silences');
    await expect(confirm.getByTestId('silence-confirm-list').locator('li')).toHaveCount(Math.min(marked.length, 5) + (marked.length > 5 ? 1 : 0));
    expect(await asksBeforeLeaving(page)).toBe(false);
    await confirm.getByRole('button', { name: 'Remove Silences' }).click();
    const overlay = page.getByTestId('silence-overlay');
    await expect(overlay).toBeVisible();
    await expect(overlay).toHaveAttribute('data-phase', 'running', { timeout: 10_000 });
    expect(await asksBeforeLeaving(page)).toBe(true);

    // a reload while it runs reconnects to the job
    page.on('dialog', (d) => void d.accept());
    await page.reload();
    await expect(page.getByTestId('silence-overlay')).toBeVisible({ timeout: 30_000 });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __overlayMessages: string[] }).__overlayMessages))
      .toContain('Reconnecting to job in progress...');
    await expect(page.getByTestId('silence-overlay')).toHaveAttribute('data-phase', /^(complete|loading)$/, { timeout: JOB_TIMEOUT_MS });
    await expect(page.getByTestId('silence-overlay-message')).toHaveText(/Silences removed successfully!|Loading Updated Video/);
    await expect(page.getByTestId('silence-overlay')).toHaveCount(0, { timeout: 10_000 });
    expect(await asksBeforeLeaving(page)).toBe(false);

    const expected = before.duration! - removedSeconds(marked, before.duration!);
    const after = await fetchVideo(page, id);
    expect(Math.abs(after.duration! - expected), `duration ${after.duration} vs ${expected}`).toBeLessThanOrEqual(DURATION_TOLERANCE_S);
    await expect(page.getByTestId('silence-mark')).toHaveCount(0);
  });

  test('Burn Captions: drawn into the picture, CC hidden so they are never doubled, out of date after a word edit, then burned again from the new words', async ({ page }, testInfo) => {
    const id = await uploadTalk(page);
    const dir = await mkdtemp(path.join(tmpdir(), 'wordcut-captions-'));
    try {
      const beforeFile = path.join(dir, 'before.mp4');
      await savePlayerMedia(page, beforeFile);
      const srcBefore = await player(page).getAttribute('src');
      await expect(page.getByTestId('captions-track')).toHaveCount(1);

      const button = page.getByRole('button', { name: /^Burn Captions/ });
      await button.click();
      const dialog = page.getByTestId('confirm-captions');
      // the style is the version's setting: boxed, medium, at the bottom by default
      await expect(dialog.getByRole('radio', { name: 'Boxed: white on a dark box' })).toBeChecked();
      await expect(dialog.getByRole('radio', { name: 'Bottom' })).toBeChecked();
      expect(await accessibilityViolations(page, '[data-testid="confirm-captions"]')).toEqual([]);
      // at both sizes the whole dialog, its buttons included, is in the window
      for (const viewport of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }]) {
        await page.setViewportSize(viewport);
        const box = (await dialog.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
        await expect(dialog.getByRole('button', { name: 'Burn Captions' })).toBeInViewport();
        await dialog.screenshot({ path: testInfo.outputPath(`captions-dialog-${viewport.width}.png`) });
      }
      await dialog.getByRole('button', { name: 'Burn Captions' }).click();
      await waitForJobToFinish(page);
      await expect(player(page)).not.toHaveAttribute('src', srcBefore!, { timeout: 15_000 });
      expect((await fetchVideo(page, id)).status).toBe('completed');
      // never twice: the player's own captions track is gone for a version with burned ones
      await expect(page.getByTestId('captions-track')).toHaveCount(0);
      await expect(button).toContainText('On');

      const afterFile = path.join(dir, 'after.mp4');
      await savePlayerMedia(page, afterFile);
      // 'Welcome back to the channel.' is spoken from 2.0 to 3.4 s: its caption lights the dark bottom band
      const lumaBefore = await bottomBandMaxLuma(beforeFile, 2.8);
      const lumaAfter = await bottomBandMaxLuma(afterFile, 2.8);
      expect(lumaBefore).toBeLessThan(100);
      expect(lumaAfter).toBeGreaterThan(180);

      // a word edit: the burned captions are out of date, and the button says so
      const { words } = await fetchTranscript(page, id);
      const welcome = findPhrase(words, 'welcome back');
      const srcBurned = await player(page).getAttribute('src');
      await editWord(page, welcome, 'GREETINGS');
      await expect(page.getByTestId('captions-stale')).toHaveText('Out of date', { timeout: 15_000 });
      await button.click();
      await expect(dialog).toContainText('no longer match the transcript');
      await dialog.getByRole('button', { name: 'Update Burned Captions' }).click();
      await waitForJobToFinish(page);
      await expect(player(page)).not.toHaveAttribute('src', srcBurned!, { timeout: 15_000 });
      await expect(page.getByTestId('captions-stale')).toHaveCount(0);
      const updatedFile = path.join(dir, 'updated.mp4');
      await savePlayerMedia(page, updatedFile);
      // the caption at 2.8 s now reads 'GREETINGS back to the channel.': its band differs from the first burn
      expect(await bottomBandMaxLuma(updatedFile, 2.8)).toBeGreaterThan(180);
      expect(await bandDifference(afterFile, updatedFile, 2.8)).toBeGreaterThan(0.002);
      await expect(page.getByTestId('captions-track')).toHaveCount(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
