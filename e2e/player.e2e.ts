import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { writeFile } from 'node:fs/promises';
import {
  authHeaders,
  correlation,
  demoVideoFile,
  loudnessEnvelope,
  fetchTranscript,
  fetchVideo,
  findPhrase,
  normalise,
  openDemoVideo,
  playThrough,
  startSampling,
  stopSampling,
  toastTitled,
  waitForJobToFinish,
  waitForTranscript,
  wordAt,
} from './editor-helpers';
import type { ApiTranscript } from './editor-helpers';

/**
 * The player, timeline, preview modes, reorder mode, clips and job reconnection in Chromium
 * against the real stack. Each test opens its own
 * fresh demo video through the provider sandbox. Playback is observed in the page: a sampler
 * records the <video>'s time on every animation frame and time update.
 */

const run = promisify(execFile);
const TEST_TIMEOUT_MS = 150_000;

async function selectRun(page: Page, first: number, last: number) {
  await wordAt(page, first).click();
  await wordAt(page, last).click({ modifiers: ['Shift'] });
  await expect(wordAt(page, last)).toHaveClass(/wc-word--selected/);
}

async function playerReady(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!.readyState), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);
}

/** Seeks the player (through the element, as the controls do) and starts it. */
async function playFrom(page: Page, time: number) {
  await page.evaluate(async (t) => {
    const video = document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!;
    video.muted = true; // autoplay policy: muted playback needs no gesture; volume is still set by the preview
    video.currentTime = t;
    await video.play();
  }, time);
}

async function pause(page: Page) {
  await page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!.pause());
}

async function currentTime(page: Page): Promise<number> {
  return page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!.currentTime);
}

/** The paragraphs' texts, in order. */
function paragraphTexts(t: ApiTranscript): string[] {
  return t.paragraphs.map((p) => normalise(p.wordIndices.map((i) => t.words[i]!.text).join(' ')));
}

test.describe('player, timeline and previews', () => {
  test.describe.configure({ timeout: TEST_TIMEOUT_MS });

  test('skips pending cuts during playback: the time never enters a cut', { tag: '@playback' }, async ({ page }) => {
    const id = await openDemoVideo(page);
    const t = await fetchTranscript(page, id);
    const first = findPhrase(t.words, 'linked to its moment');
    const last = first + 3;
    await selectRun(page, first, last);
    await page.keyboard.press('Delete');
    await expect(page.getByTestId('pending-cuts-bar')).toBeVisible();
    await expect(page.getByTestId('preview-banners')).toContainText('Skipping 1 pending cut during playback');
    const cut = { start: t.words[first]!.start, end: t.words[last]!.end };

    await playerReady(page);
    // the selecting click seeks to its word 300 ms later: let that seek land first, or it could move the time after playback starts
    await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(cut.start - 0.05);
    await startSampling(page);
    await playFrom(page, Math.max(0, cut.start - 1));
    await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThan(cut.end + 0.6);
    await pause(page);
    const samples = await stopSampling(page);

    const seen = `${samples.length} samples: ${samples.slice(0, 12).map((s) => s.t.toFixed(3)).join(', ')}…`;
    expect(samples.some((s) => s.t < cut.start), `played up to the cut at ${cut.start} (${seen})`).toBe(true);
    expect(samples.some((s) => s.t >= cut.end + 0.1), `played on after the cut (${seen})`).toBe(true);
    // one frame (≤ 40 ms) of tolerance at the cut's start: the controller jumps a frame early
    const inside = samples.filter((s) => s.t > cut.start + 0.04 && s.t < cut.end + 0.09);
    expect(inside, `times inside the cut ${cut.start}-${cut.end}: ${inside.map((s) => s.t.toFixed(3)).join(', ')}`).toEqual([]);

    // seeking into a cut lands after it
    await page.evaluate((time) => {
      document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!.currentTime = time;
    }, (cut.start + cut.end) / 2);
    await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(cut.end + 0.09);
  });

  test('mute preview plays muted words at the level volume', { tag: '@playback' }, async ({ page }) => {
    const id = await openDemoVideo(page);
    const t = await fetchTranscript(page, id);
    const first = findPhrase(t.words, 'linked to its moment');
    const last = first + 3;
    await selectRun(page, first, last);
    await page.keyboard.press('2'); // whisper
    await expect(page.getByTestId('pending-mutes-bar')).toBeVisible();
    const preview = page.getByTestId('mute-preview');
    await preview.click();
    await expect(preview).toHaveAttribute('aria-pressed', 'true');
    const mute = { start: t.words[first]!.start, end: t.words[last]!.end };

    await playerReady(page);
    await startSampling(page);
    await playFrom(page, Math.max(0, mute.start - 0.8));
    await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThan(mute.end + 0.5);
    await pause(page);
    const samples = await stopSampling(page);
    const onTime = samples.filter((s) => !s.late);
    const within = onTime.filter((s) => s.t > mute.start + 0.1 && s.t < mute.end - 0.1);
    const before = onTime.filter((s) => s.t < mute.start - 0.2);
    const after = onTime.filter((s) => s.t > mute.end + 0.2);
    expect(within.length).toBeGreaterThan(3);
    expect(new Set(within.map((s) => s.v))).toEqual(new Set([0.1]));
    const show = (list: typeof samples) => list.map((s) => `${s.t.toFixed(3)}:${s.v}`).join(' ');
    expect(before.filter((s) => s.v !== 1), `before the mute (${mute.start}): ${show(before)}`).toEqual([]);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((s) => s.v !== 1), `after the mute (${mute.end}): ${show(after)}`).toEqual([]);

    // clearing the mutes turns the preview off
    await page.getByTestId('pending-mutes-bar').getByRole('button', { name: 'Clear Mutes' }).click();
    await expect(page.getByTestId('pending-mutes-bar')).toHaveCount(0);
    await playFrom(page, mute.start + 0.2);
    await pause(page);
    expect(await page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!.volume)).toBe(1);
  });

  test('the timeline zooms between 0.25x and 16x and seeks where clicked', async ({ page }) => {
    await openDemoVideo(page);
    await playerReady(page);
    const zoom = page.getByTestId('timeline-zoom');
    await expect(zoom).toHaveText('1x');
    const zoomIn = page.getByTestId('timeline-zoom-in');
    for (const level of ['2x', '4x', '8x', '16x']) {
      await zoomIn.click();
      await expect(zoom).toHaveText(level);
    }
    await expect(zoomIn).toBeDisabled();
    await expect(page.getByTestId('editor-footer')).toContainText('1600%');
    const zoomOut = page.getByTestId('timeline-zoom-out');
    for (let i = 0; i < 6; i++) await zoomOut.click();
    await expect(zoom).toHaveText('0.25x');
    await expect(zoomOut).toBeDisabled();
    for (let i = 0; i < 2; i++) await zoomIn.click();
    await expect(zoom).toHaveText('1x');

    const viewport = page.getByTestId('timeline-viewport');
    const box = (await viewport.boundingBox())!;
    const duration = await page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!.duration);
    await viewport.click({ position: { x: box.width / 2, y: 40 } });
    await expect.poll(() => currentTime(page)).toBeGreaterThan(duration / 2 - 1);
    expect(await currentTime(page)).toBeLessThan(duration / 2 + 1);
    const at = await currentTime(page);
    await viewport.press('ArrowRight');
    await expect.poll(() => currentTime(page)).toBeGreaterThan(at + 4.5);

    // zoomed in, the view follows the playhead to the end
    for (let i = 0; i < 3; i++) await zoomIn.click();
    await expect(zoom).toHaveText('8x');
    await viewport.press('End');
    await expect.poll(() => viewport.evaluate((el) => el.scrollLeft)).toBeGreaterThan(box.width * 6);
    await expect(page.getByTestId('playhead')).toBeVisible();
  });

  test('reorders two paragraphs: previews them in order, applies, and the video holds the new order', { tag: '@playback' }, async ({ page }, testInfo) => {
    const id = await openDemoVideo(page);
    const before = await fetchTranscript(page, id);
    expect(before.paragraphs.length).toBeGreaterThanOrEqual(2);
    const texts = paragraphTexts(before);
    await playerReady(page);

    await page.getByTestId('reorder-segments').click();
    const panel = page.getByTestId('reorder-panel');
    await expect(panel).toBeVisible();
    await expect(page.getByTestId('reorder-preview-reason')).toHaveText('No changes made - drag paragraphs to reorder first');
    await panel.getByRole('button', { name: 'Apply Reorder' }).click();
    await expect(toastTitled(page, 'No changes detected')).toBeVisible();

    // move the second paragraph up with the keyboard: Space picks up, ArrowUp moves, Space drops
    const handle = page.getByTestId('reorder-handle').nth(1);
    await handle.focus();
    await page.keyboard.press('Space');
    // dnd-kit measures the droppables after the drag starts: move only once it is picked up, and
    // drop only once the live region says it is over position 1 (an arrow pressed before the
    // measurement finds no target, so press it again until it lands)
    await expect(handle).toHaveAttribute('aria-pressed', 'true');
    await expect(async () => {
      await page.keyboard.press('ArrowUp');
      await expect(page.getByText('Paragraph 2 is over position 1.')).toBeAttached({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    await page.keyboard.press('Space');
    await expect(page.getByTestId('reorder-item').first()).toHaveAttribute('data-paragraph', '1');
    await expect(page.getByTestId('reorder-item').nth(1)).toHaveAttribute('data-paragraph', '0');

    // preview: paragraph 2 plays, then paragraph 1
    const p0 = before.paragraphs[0]!;
    const p1 = before.paragraphs[1]!;
    const p0Start = before.words[p0.wordIndices[0]!]!.start;
    const p1Start = before.words[p1.wordIndices[0]!]!.start;
    const p1End = before.words[p1.wordIndices[p1.wordIndices.length - 1]!]!.end;
    await page.evaluate(() => {
      document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!.muted = true;
    });
    await startSampling(page);
    await page.getByTestId('start-reorder-preview').click();
    await expect(toastTitled(page, 'Preview mode activated')).toBeVisible();
    await expect(page.getByTestId('reorder-preview-status')).toContainText('Playing segment 2 of', { timeout: 30_000 });
    // the status changes as the seek to paragraph 1 starts; samples resume once it has landed
    await expect
      .poll(
        () =>
          page.evaluate(([p1Lo, p1Hi, p0Lo, p0Hi]) => {
            const samples = (window as unknown as { __samples: Array<{ t: number }> }).__samples;
            const first = samples.findIndex((x) => x.t >= p1Lo && x.t < p1Hi);
            return first >= 0 && samples.some((x, i) => i > first && x.t >= p0Lo && x.t < p0Hi);
          }, [p1Start - 0.05, p1End, p0Start - 0.05, p1Start - 0.5] as const),
        { timeout: 10_000 },
      )
      .toBe(true);
    const samples = await stopSampling(page);
    const firstPlayed = samples.findIndex((s) => s.t >= p1Start - 0.05 && s.t < p1End);
    const backToStart = samples.findIndex((s, i) => i > firstPlayed && s.t >= p0Start - 0.05 && s.t < p1Start - 0.5);
    expect(firstPlayed, 'paragraph 2 played first').toBeGreaterThanOrEqual(0);
    expect(backToStart, 'then paragraph 1').toBeGreaterThan(firstPlayed);
    expect(samples.slice(firstPlayed, backToStart).every((s) => s.t <= p1End + 0.1), 'paragraph 2 played to its end only').toBe(true);
    await page.getByTestId('stop-reorder-preview').click();
    await expect(toastTitled(page, 'Preview mode deactivated')).toBeVisible();

    await panel.getByRole('button', { name: 'Apply Reorder' }).click();
    await page.getByTestId('reorder-confirm').getByRole('button', { name: 'Start Reordering' }).click();
    await waitForJobToFinish(page);
    await expect(page.getByTestId('reorder-panel')).toHaveCount(0, { timeout: 10_000 });

    const after = await fetchTranscript(page, id);
    const textsAfter = paragraphTexts(after);
    expect(textsAfter[0]).toBe(texts[1]);
    expect(textsAfter[1]).toBe(texts[0]);
    expect(textsAfter.slice(2)).toEqual(texts.slice(2));
    // after the job the player is back at the start, paused (nothing plays by itself)
    await expect.poll(() => currentTime(page), { timeout: 10_000 }).toBeLessThan(0.5);
    expect(await page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!.paused)).toBe(true);

    // the rendered media itself starts with the old second paragraph: its loudness envelope
    // matches the original's second paragraph, not its first
    const media = await page.request.get(`/api/videos/${id}/stream/processed?t=${Date.now()}`, { headers: await authHeaders(page) });
    expect(media.ok()).toBe(true);
    const rendered = testInfo.outputPath('reordered.mp4');
    await writeFile(rendered, await media.body());
    const p1Length = p1End - p1Start;
    const newFirstStart = after.words[after.paragraphs[0]!.wordIndices[0]!]!.start;
    const renderedHead = await loudnessEnvelope(rendered, newFirstStart, p1Length);
    const originalP1 = await loudnessEnvelope(demoVideoFile(), p1Start, p1Length);
    const originalP0 = await loudnessEnvelope(demoVideoFile(), p0Start, p1Length);
    const matchP1 = correlation(renderedHead, originalP1);
    const matchP0 = correlation(renderedHead, originalP0);
    expect(matchP1, `envelope correlation with paragraph 2 ${matchP1.toFixed(2)}, with paragraph 1 ${matchP0.toFixed(2)}`).toBeGreaterThan(0.8);
    expect(matchP1).toBeGreaterThan(matchP0 + 0.2);

    // the render (an MP4 the worker composed) plays across the paragraphs' junction after a seek
    const played = await playThrough(page, after.words[after.paragraphs[1]!.wordIndices[0]!]!.start - 1, 2500);
    expect(played.src).toContain('/stream/processed');
    expect(played.error, JSON.stringify(played)).toBeNull();
    expect(played.time).toBeGreaterThan(played.from + 1.5);
    expect(played.frames).toBeGreaterThan(30);

  });

  test('creates a 9:16 clip zoomed and panned in the dialog, follows it to completion and downloads a 1080x1920 file', async ({ page }, testInfo) => {
    const id = await openDemoVideo(page);
    const t = await fetchTranscript(page, id);
    const first = findPhrase(t.words, 'linked to its moment');
    await selectRun(page, first, first + 3);
    await page.getByTestId('selection-create-clip').click();
    const dialog = page.getByTestId('create-clip-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('radio', { name: /Original/ })).toBeChecked();
    await dialog.getByTestId('aspect-9:16').click();
    await expect(page.getByTestId('reframe-overlay')).toHaveAttribute('data-ratio', '9:16');
    // the preview is a 9:16 box showing the window the clip keeps
    const frame = dialog.getByTestId('clip-frame');
    const box = (await frame.boundingBox())!;
    expect(box.width / box.height).toBeCloseTo(9 / 16, 2);
    const centred = (await page.getByTestId('reframe-frame').boundingBox())!;
    // zoomed to 1.5 (slider) then 1.6 (button), panned by dragging the picture left and by a key up
    await dialog.getByTestId('clip-zoom').fill('1.5');
    await dialog.getByRole('button', { name: 'Zoom in' }).click();
    await expect(frame).toHaveAttribute('data-zoom', '1.6');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 20, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2 - 40, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await frame.press('ArrowUp');
    const offsetX = Number(await frame.getAttribute('data-offset-x'));
    const offsetY = Number(await frame.getAttribute('data-offset-y'));
    expect(offsetX).toBeGreaterThan(1);
    expect(offsetY).toBeLessThan(0);
    // the player's frame shows the same window: smaller and moved right
    const zoomed = (await page.getByTestId('reframe-frame').boundingBox())!;
    expect(zoomed.width).toBeCloseTo(centred.width / 1.6, 0);
    expect(zoomed.x + zoomed.width / 2).toBeGreaterThan(centred.x + centred.width / 2 + 1);
    // the name is required: Enter on an empty name refuses
    await dialog.getByTestId('clip-name').press('Enter');
    await expect(dialog.getByRole('alert')).toHaveText('Please enter a clip name');
    await dialog.getByTestId('clip-name').fill('Story moment');
    const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/clips');
    await dialog.getByTestId('clip-name').press('Enter');
    const body = (await sent).postDataJSON() as { aspectRatio: string; reframe: { offsetX: number; offsetY: number; scale: number } };
    expect(body.aspectRatio).toBe('9:16');
    expect(body.reframe.scale).toBe(1.6);
    expect(body.reframe.offsetX).toBeCloseTo(offsetX, 2);
    expect(body.reframe.offsetY).toBeCloseTo(offsetY, 2);
    await expect(toastTitled(page, 'Clip created')).toContainText('Story moment is being processed...');
    await expect(dialog).toHaveCount(0);

    const item = page.getByTestId('clip-item').filter({ hasText: 'Story moment' });
    await expect(item).toBeVisible();
    await expect(item).toHaveAttribute('data-status', 'completed', { timeout: 90_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), item.getByTestId('clip-download').click()]);
    expect(download.suggestedFilename()).toBe('Story moment.mp4');
    const file = testInfo.outputPath('clip.mp4');
    await download.saveAs(file);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file]);
    expect(stdout.trim()).toBe('1080,1920');
    const [vtt] = await Promise.all([page.waitForEvent('download'), item.getByTestId('clip-download-vtt').click()]);
    expect(vtt.suggestedFilename()).toBe('Story moment.vtt');

    // Quick Export without a selection says what to do
    await wordAt(page, first).press('Escape');
    await expect(page.getByTestId('selection-toolbar')).toHaveCount(0);
    await page.getByTestId('quick-export-square').click();
    await expect(toastTitled(page, 'No text selected')).toContainText('Please select text in the transcript first.');

    await item.getByRole('button', { name: 'Delete Story moment' }).click();
    await page.getByTestId('delete-clip-dialog').getByRole('button', { name: 'Delete clip' }).click();
    await expect(toastTitled(page, 'Clip deleted')).toBeVisible();
    await expect(item).toHaveCount(0);
  });

  test('a reload during a job reconnects to it', async ({ page }) => {
    const id = await openDemoVideo(page);
    const t = await fetchTranscript(page, id);
    const videoBefore = await fetchVideo(page, id);
    const first = findPhrase(t.words, 'linked to its moment');
    await selectRun(page, first, first + 3);
    await page.keyboard.press('Delete');
    await page.getByTestId('pending-cuts-bar').getByRole('button', { name: 'Process Video with 1 Cuts' }).click();
    await page.getByTestId('confirm-cuts').getByRole('button', { name: 'Process Video' }).click();
    const overlay = page.getByTestId('job-overlay');
    await expect(overlay).toBeVisible();
    const jobId = await overlay.getAttribute('data-job-id');
    const stored = await page.evaluate(() => localStorage.getItem('wordcut_active_jobs'));
    expect(JSON.parse(stored!)).toEqual([expect.objectContaining({ jobId, type: 'cut', videoId: id })]);

    await page.reload();
    await expect(page.getByTestId('job-overlay')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('job-overlay')).toHaveAttribute('data-job-id', jobId!);
    await waitForJobToFinish(page);
    await waitForTranscript(page);
    expect(await page.evaluate(() => localStorage.getItem('wordcut_active_jobs'))).toBeNull();
    await expect.poll(async () => (await fetchVideo(page, id)).duration, { timeout: 15_000 }).toBeLessThan(videoBefore.duration! - 0.5);
  });
});
