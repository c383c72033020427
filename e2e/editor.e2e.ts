/* Over 400 lines: the transcript editor's end-to-end tests share one set of selection and media helpers. */
import { readFile, writeFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import {
  authHeaders,
  demoVideoFile,
  editWord,
  fetchTranscript,
  fetchVideo,
  findPhrase,
  meanVolume,
  normalise,
  openDemoVideo,
  persistedHistoryIndex,
  toastTitled,
  waitForJobToFinish,
  waitForTranscript,
  wordAt,
} from './editor-helpers';
import type { ApiWord } from './editor-helpers';

/**
 * The transcript editor against the real backend: every test opens its
 * own fresh demo video through the provider sandbox, edits it through the UI only, and checks
 * the outcome where it lands: the API (transcript, duration), the rendered media (ffmpeg), or
 * the page after a reload. Demo sentences (tools/media/generate-test-media.sh) are addressed
 * by their words, since word times come from the VTT.
 */

/** Time a test may take: ingest of a new video plus one server render. */
const TEST_TIMEOUT_MS = 120_000;
/** Durations and re-timed word starts after a render may differ from the word-time arithmetic by this much. */
const TIME_TOLERANCE_S = 0.3;

/** `expect(...).toBeCloseTo` takes digits; these checks need an absolute tolerance. */
function expectNear(actual: number, expected: number, tolerance: number, what: string) {
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected} (±${tolerance})`).toBeLessThanOrEqual(tolerance);
}

/** The seconds a run of words covers, first start to last end. */
function span(words: readonly ApiWord[], first: number, last: number): number {
  return words[last]!.end - words[first]!.start;
}

/** Selects the words first..last with a click and a shift+click. */
async function selectRun(page: Page, first: number, last: number) {
  await wordAt(page, first).click();
  await wordAt(page, last).click({ modifiers: ['Shift'] });
  for (let i = first; i <= last; i++) await expect(wordAt(page, i)).toHaveClass(/wc-word--selected/);
}

test.describe('transcript editor', () => {
  test.describe.configure({ timeout: TEST_TIMEOUT_MS });

  test('cuts a selected run: the video gets shorter and the transcript is re-timed', async ({ page }) => {
    const id = await openDemoVideo(page);
    const before = await fetchTranscript(page, id);
    const videoBefore = await fetchVideo(page, id);
    const first = findPhrase(before.words, 'linked to its moment');
    const last = first + 3;
    const cutSpan = span(before.words, first, last);
    const after = before.words[last + 1]!;

    await selectRun(page, first, last);
    await page.keyboard.press('Delete');
    for (let i = first; i <= last; i++) {
      await expect(wordAt(page, i)).toHaveClass(/wc-word--cut/);
      await expect(wordAt(page, i)).toHaveAttribute('data-marks', /marked for cutting/);
    }
    await expect(wordAt(page, last + 1)).not.toHaveClass(/wc-word--cut/);

    const bar = page.getByTestId('pending-cuts-bar');
    await bar.getByRole('button', { name: 'Process Video with 1 Cuts' }).click();
    await page.getByTestId('confirm-cuts').getByRole('button', { name: 'Process Video' }).click();
    await waitForJobToFinish(page);

    await expect.poll(async () => (await fetchVideo(page, id)).duration, { timeout: 15_000 }).not.toBe(videoBefore.duration);
    expectNear((await fetchVideo(page, id)).duration!, videoBefore.duration! - cutSpan, TIME_TOLERANCE_S, 'duration after the cut');
    const transcript = await fetchTranscript(page, id);
    expect(transcript.words).toHaveLength(before.words.length - 4);
    const moved = transcript.words[first]!;
    expect(moved.text).toBe(after.text);
    expectNear(moved.start, after.start - cutSpan, TIME_TOLERANCE_S, `start of '${after.text}' after the cut`);
    expect(transcript.words.slice(0, first).map((w) => w.text)).toEqual(before.words.slice(0, first).map((w) => w.text));
    await expect(page.getByTestId('pending-cuts-bar')).toHaveCount(0);
    await expect(wordAt(page, first)).toHaveText(after.text);
  });

  test('a processed cut is undone and redone, words and media; a pending mute survives the Process', async ({ page }) => {
    const id = await openDemoVideo(page);
    const before = await fetchTranscript(page, id);
    const videoBefore = await fetchVideo(page, id);
    const first = findPhrase(before.words, 'linked to its moment');
    const last = first + 3;
    const muted = findPhrase(before.words, 'remove all the filler');
    const mutedText = before.words[muted]!.text;
    const playerDuration = () => page.locator('video').first().evaluate((v: HTMLVideoElement) => v.duration);
    const mutedWord = (index: number) => wordAt(page, index);

    // a pending mute after the cut, at Whisper
    await wordAt(page, muted).focus();
    await page.keyboard.press('Shift+Space');
    await page.keyboard.press('2');
    await expect(mutedWord(muted)).toHaveClass(/wc-word--mute-whisper/);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('selection-toolbar')).toHaveCount(0);

    await selectRun(page, first, last);
    await page.keyboard.press('Delete');
    await page.getByTestId('pending-cuts-bar').getByRole('button', { name: 'Process Video with 1 Cuts' }).click();
    await page.getByTestId('confirm-cuts').getByRole('button', { name: 'Process Video' }).click();
    await waitForJobToFinish(page);
    await expect.poll(async () => (await fetchTranscript(page, id)).words.length, { timeout: 15_000 }).toBe(before.words.length - 4);
    const cutDuration = (await fetchVideo(page, id)).duration!;
    expect(cutDuration).toBeLessThan(videoBefore.duration! - 0.5);
    // the mute followed its word (four places earlier now) and is still pending
    await expect(mutedWord(muted - 4)).toHaveText(mutedText);
    await expect(mutedWord(muted - 4)).toHaveClass(/wc-word--mute-whisper/);
    await expect(page.getByTestId('pending-mutes-bar')).toBeVisible();
    await expect(page.getByTestId('undo-count')).toHaveText('2');
    await expect.poll(playerDuration, { timeout: 15_000 }).toBeLessThan(videoBefore.duration! - 0.5);

    // Undo: the words and the media without the cut again, the mute where it was
    await page.getByTestId('undo').click();
    await expect(wordAt(page, first)).toHaveText(before.words[first]!.text);
    await expect(page.getByTestId('transcript-word')).toHaveCount(before.words.length);
    await expect(mutedWord(muted)).toHaveClass(/wc-word--mute-whisper/);
    await expect(page.getByTestId('redo-count')).toHaveText('1');
    expectNear((await fetchVideo(page, id)).duration!, videoBefore.duration!, 0.05, 'duration after undo');
    expect((await fetchTranscript(page, id)).words.map((w) => w.text)).toEqual(before.words.map((w) => w.text));
    await expect.poll(playerDuration, { timeout: 15_000 }).toBeGreaterThan(videoBefore.duration! - 0.2);

    // Redo: the cut again
    await page.keyboard.press('Control+Shift+Z');
    await expect(page.getByTestId('transcript-word')).toHaveCount(before.words.length - 4);
    await expect(mutedWord(muted - 4)).toHaveClass(/wc-word--mute-whisper/);
    expectNear((await fetchVideo(page, id)).duration!, cutDuration, 0.05, 'duration after redo');
    await expect.poll(playerDuration, { timeout: 15_000 }).toBeLessThan(videoBefore.duration! - 0.5);

    // a filler removal keeps the pending mute too, on its word
    const wordsBefore = (await fetchTranscript(page, id)).words.length;
    await page.getByTestId('editor-toolbar').getByRole('button', { name: 'Remove Filler Words' }).click();
    await page.getByTestId('confirm-fillers').getByRole('button', { name: 'Remove Filler Words' }).click();
    await waitForJobToFinish(page);
    await expect.poll(async () => (await fetchTranscript(page, id)).words.length, { timeout: 15_000 }).toBeLessThan(wordsBefore);
    const stillMuted = page.locator('.wc-word--mute-whisper');
    await expect(stillMuted).toHaveCount(1);
    await expect(stillMuted).toHaveText(mutedText);
    await expect(page.getByTestId('pending-mutes-bar')).toBeVisible();
  });

  test('Export for editing: the EDL and FCPXML of a cut video name the original and its frames; the SRT has the edited words', async ({ page }) => {
    const id = await openDemoVideo(page);
    const before = await fetchTranscript(page, id);
    const first = findPhrase(before.words, 'linked to its moment');
    await selectRun(page, first, first + 3);
    await page.keyboard.press('Delete');
    await page.getByTestId('pending-cuts-bar').getByRole('button', { name: 'Process Video with 1 Cuts' }).click();
    await page.getByTestId('confirm-cuts').getByRole('button', { name: 'Process Video' }).click();
    await waitForJobToFinish(page);

    await page.getByTestId('export-for-editing-button').click();
    const dialog = page.getByTestId('export-for-editing');
    const fetchFile = async (format: string) => {
      const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId(`export-${format}`).click()]);
      const path = await download.path();
      return { name: download.suggestedFilename(), text: await readFile(path!, 'utf8') };
    };
    const edl = await fetchFile('edl');
    expect(edl.name).toMatch(/\.edl$/);
    // two events: before and after the cut, the file named in a comment
    expect(edl.text).toMatch(/^TITLE: .+\nFCM: (NON-)?DROP FRAME\n/);
    expect(edl.text.match(/^\d{3} {2}AX {7}AA\/V {2}C {8}/gm)).toHaveLength(2);
    expect(edl.text).toContain('* FROM CLIP NAME: ');
    const fcpxml = await fetchFile('fcpxml');
    expect(fcpxml.text).toContain('<fcpxml version="1.10">');
    expect(fcpxml.text.match(/<asset-clip /g)).toHaveLength(2);
    const srt = await fetchFile('srt');
    expect(srt.text).toMatch(/^1\r\n\d\d:\d\d:\d\d,\d{3} --> /);
    expect(normalise(srt.text)).not.toContain(normalise(before.words.slice(first, first + 4).map((w) => w.text).join('')));
  });

  test('Replace transcript: a SubRip file brings its words (a bad entry skipped); Undo brings the old words back', async ({ page }) => {
    const id = await openDemoVideo(page);
    const before = await fetchTranscript(page, id);
    await page.getByTestId('replace-transcript-button').click();
    const dialog = page.getByTestId('replace-transcript');
    await expect(dialog).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).include('[data-testid="replace-transcript"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(violations.map((v) => v.id)).toEqual([]);
    const srt = '1\n00:00:00,500 --> 00:00:02,000\nBrand new opening words\n\n2\n00:00:02,500 -> 00:00:03,000\nbroken timing\n\n3\n00:00:03,000 --> 00:00:04,500\nand a second line\n';
    await dialog.getByLabel('Caption file').setInputFiles({ name: 'better.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(srt) });
    await dialog.getByRole('button', { name: 'Replace transcript' }).click();
    await expect(toastTitled(page, 'Transcript replaced')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('transcript-word')).toHaveCount(8);
    await expect(wordAt(page, 0)).toHaveText('Brand');
    expect((await fetchTranscript(page, id)).words.map((w) => w.text).join(' ')).toBe('Brand new opening words and a second line');

    await page.getByTestId('undo').click();
    await expect(page.getByTestId('transcript-word')).toHaveCount(before.words.length);
    await expect(wordAt(page, 0)).toHaveText(before.words[0]!.text);
    expect((await fetchTranscript(page, id)).words.map((w) => w.text)).toEqual(before.words.map((w) => w.text));
  });

  test('keeps a contiguous selection only, after refusing a non-contiguous one', async ({ page }) => {
    const id = await openDemoVideo(page);
    const before = await fetchTranscript(page, id);
    const toolbar = page.getByTestId('selection-toolbar');

    await wordAt(page, 1).click({ modifiers: ['Control'] });
    await wordAt(page, before.words.length - 2).click({ modifiers: ['Control'] });
    await expect(wordAt(page, 1)).toHaveClass(/wc-word--selected/);
    await expect(wordAt(page, 2)).not.toHaveClass(/wc-word--selected/);
    await toolbar.getByRole('button', { name: 'Keep Selection' }).click();
    const refused = toastTitled(page, 'Selection must be contiguous');
    await expect(refused).toBeVisible();
    await expect(refused.locator('.wc-toast__description')).toHaveText(
      'Keep selection requires a contiguous selection with no gaps between words. Please select a continuous range of text.',
    );
    await expect(page.getByTestId('keep-banner')).toHaveCount(0);

    const first = findPhrase(before.words, 'every word is linked');
    const last = findPhrase(before.words, 'the recording');
    // compared normalised: the stored text is tidied after a cut (a new sentence end, capitals)
    const kept = before.words.slice(first, last + 1).map((w) => normalise(w.text));
    const keptSpan = span(before.words, first, last);
    await selectRun(page, first, last);
    await toolbar.getByRole('button', { name: 'Keep Selection' }).click();
    const banner = page.getByTestId('keep-banner');
    await expect(banner).toContainText('Preview: Keep Selection');
    await expect(wordAt(page, 0)).toHaveClass(/wc-word--outside-keep/);
    await expect(wordAt(page, first)).not.toHaveClass(/wc-word--outside-keep/);
    await banner.getByRole('button', { name: 'Confirm - Keep This Text' }).click();
    await page.getByTestId('confirm-keep').getByRole('button', { name: 'Proceed with Trim' }).click();
    await waitForJobToFinish(page);

    await expect.poll(async () => (await fetchTranscript(page, id)).words.map((w) => normalise(w.text)), { timeout: 15_000 }).toEqual(kept);
    expectNear((await fetchVideo(page, id)).duration!, keptSpan, TIME_TOLERANCE_S, 'duration after keep');
    await expect(page.getByTestId('keep-banner')).toHaveCount(0);
    await expect(page.getByTestId('transcript-word')).toHaveCount(kept.length);
  });

  test('mutes three regions by keyboard at three levels and renders their loudness', async ({ page }, testInfo) => {
    const id = await openDemoVideo(page);
    const { words } = await fetchTranscript(page, id);
    const regions = [
      { phrase: 'today i will show', key: '1', level: 'silence', name: 'Silence' },
      { phrase: 'every word is linked', key: '2', level: 'whisper', name: 'Whisper' },
      { phrase: 'remove all the filler', key: '3', level: 'background', name: 'Background' },
    ].map((r) => {
      const first = findPhrase(words, r.phrase);
      return { ...r, first, last: first + 3, start: words[first]!.start, end: words[first + 3]!.end };
    });
    for (const r of regions) expect(r.end - r.start, r.phrase).toBeGreaterThanOrEqual(0.5);
    const underline = (i: number) => wordAt(page, i).evaluate((el) => getComputedStyle(el).borderBottomStyle);

    for (const r of regions) {
      await wordAt(page, r.first).focus();
      await page.keyboard.press('Shift+Space');
      for (let k = 0; k < r.last - r.first; k++) await page.keyboard.press('Shift+ArrowRight');
      await expect(wordAt(page, r.last)).toBeFocused();
      await page.keyboard.press(r.key);
      for (let i = r.first; i <= r.last; i++) {
        await expect(wordAt(page, i)).toHaveClass(new RegExp(`wc-word--mute-${r.level}`));
        await expect(wordAt(page, i)).toHaveAttribute('data-marks', `muted (${r.level})`);
      }
      // told apart without colour: each level its own underline pattern
      expect(await underline(r.first)).toBe({ silence: 'solid', whisper: 'dashed', background: 'dotted' }[r.level]);
      if (r.level === 'background') await page.getByTestId('transcript-list').screenshot({ path: testInfo.outputPath('mute-levels.png') });
      await expect(wordAt(page, r.last + 1)).not.toHaveClass(/wc-word--mute-/);
    }

    await page.getByTestId('pending-mutes-bar').getByRole('button', { name: 'Process Audio with 3 Muted Regions' }).click();
    const dialog = page.getByTestId('confirm-mutes');
    const items = dialog.getByTestId('mute-list').getByRole('listitem');
    await expect(items).toHaveCount(3);
    for (const [k, r] of regions.entries()) await expect(items.nth(k)).toContainText(r.name);
    await dialog.getByRole('button', { name: 'Process Audio' }).click();
    await waitForJobToFinish(page);

    const processed = testInfo.outputPath('processed.mp4');
    const response = await page.request.get(`/api/videos/${id}/stream/processed?t=${Date.now()}`, { headers: await authHeaders(page) });
    expect(response.ok()).toBe(true);
    await writeFile(processed, await response.body());
    const original = demoVideoFile();
    // measured inside each region, clear of AAC frames that straddle its edges
    const margin = 0.05;
    const loudness = async (start: number, end: number) => ({
      before: await meanVolume(original, start + margin, end - start - 2 * margin),
      after: await meanVolume(processed, start + margin, end - start - 2 * margin),
    });

    const [silence, whisper, background] = regions;
    const s = await loudness(silence!.start, silence!.end);
    expect(s.before - s.after, `silence region ${JSON.stringify(s)}`).toBeGreaterThanOrEqual(40);
    const w = await loudness(whisper!.start, whisper!.end);
    expectNear(w.after - w.before, -20, 4, 'whisper gain (dB)');
    const b = await loudness(background!.start, background!.end);
    expectNear(b.after - b.before, -10.5, 4, 'background gain (dB)');
    const controlFirst = findPhrase(words, 'long pauses can be');
    const c = await loudness(words[controlFirst]!.start, words[controlFirst + 3]!.end);
    expectNear(c.after - c.before, 0, 2, 'unmuted region gain (dB)');
    // the processed mutes are no longer pending
    await expect(page.getByTestId('pending-mutes-bar')).toHaveCount(0);
    await expect(wordAt(page, silence!.first)).not.toHaveClass(/wc-word--mute-/);
  });

  test('removes the filler words after a review that keeps one; Ctrl+M flags what the chip counts', async ({ page }, testInfo) => {
    const id = await openDemoVideo(page);
    const before = await fetchTranscript(page, id);
    const videoBefore = await fetchVideo(page, id);
    const fillers = before.fillerWords.length;
    expect(fillers).toBeGreaterThan(1);
    await expect(page.getByTestId('chip-fillers')).toHaveText(`${fillers} filler${fillers === 1 ? '' : 's'}`);
    for (const i of before.fillerWords) await expect(wordAt(page, i)).toHaveClass(/wc-word--filler/);

    // Ctrl+M: the toast's count is the chip's
    await wordAt(page, 0).focus();
    await page.keyboard.press('Control+m');
    const flagged = toastTitled(page, /filler words? flagged$/);
    await expect(flagged).toBeVisible();
    const count = Number(/^(\d+)/.exec((await flagged.textContent()) ?? '')?.[1]);
    await expect(page.getByTestId('chip-fillers')).toHaveText(`${count} filler${count === 1 ? '' : 's'}`);
    expect(count).toBeGreaterThanOrEqual(fillers);
    await expect.poll(async () => (await fetchTranscript(page, id)).fillerWords.length).toBe(count);
    const flaggedWords = (await fetchTranscript(page, id)).fillerWords;

    await page.getByTestId('editor-toolbar').getByRole('button', { name: 'Remove Filler Words' }).click();
    const dialog = page.getByTestId('confirm-fillers');
    const review = dialog.getByTestId('filler-review');
    await expect(review).toContainText(`${count} filler word${count === 1 ? '' : 's'} of ${count} will be cut`);
    // each kind with its count; keep the first occurrence of the first kind
    const firstKind = review.getByTestId('filler-kind').first();
    await expect(firstKind).toContainText('×');
    const kindName = await firstKind.getAttribute('data-kind');
    const showButton = firstKind.getByRole('button', { name: /^Show/ });
    if (await showButton.count()) await showButton.click();
    const keep = firstKind.getByTestId('filler-occurrence').first();
    const keptIndex = Number(await keep.getAttribute('data-index'));
    await keep.uncheck();
    await expect(review).toContainText(`${count - 1} filler word${count - 1 === 1 ? '' : 's'} of ${count} will be cut`);
    // the whole dialog, its buttons included, is on screen
    const box = (await dialog.boundingBox())!;
    const view = page.viewportSize()!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(view.height);
    await dialog.screenshot({ path: testInfo.outputPath('filler-review.png') });
    await dialog.getByRole('button', { name: 'Remove Filler Words' }).click();
    await waitForJobToFinish(page);

    const expectedWords = before.words.filter((_, i) => !flaggedWords.includes(i) || i === keptIndex).map((w) => normalise(w.text));
    await expect.poll(async () => (await fetchTranscript(page, id)).words.length, { timeout: 15_000 }).toBe(before.words.length - (count - 1));
    const transcript = await fetchTranscript(page, id);
    expect(transcript.words.map((w) => normalise(w.text))).toEqual(expectedWords);
    expect(transcript.words.map((w) => normalise(w.text))).toContain(kindName);
    expect((await fetchVideo(page, id)).duration!).toBeLessThan(videoBefore.duration! - 0.1);
    await expect(page.getByTestId('transcript-word')).toHaveCount(transcript.words.length);
  });

  test('edits a word: saved to the server and still there after a reload', async ({ page }) => {
    const id = await openDemoVideo(page);
    const { words } = await fetchTranscript(page, id);
    const index = findPhrase(words, 'welcome');

    // a double click on a word with nothing selected yet, as a user starts
    await wordAt(page, index).dblclick();
    const popover = page.getByTestId('word-edit');
    await expect(popover).toBeVisible();
    const input = popover.getByLabel('Edit Word');
    await expect(input).toHaveValue(words[index]!.text);
    await input.fill('greetings');
    await popover.getByRole('button', { name: 'Save' }).click();
    await expect(popover).toHaveCount(0);
    await expect(wordAt(page, index)).toHaveText('greetings');
    await expect.poll(async () => (await fetchTranscript(page, id)).words[index]!.text).toBe('greetings');

    await page.reload();
    await waitForTranscript(page);
    await expect(wordAt(page, index)).toHaveText('greetings');
    await expect(wordAt(page, index + 1)).toHaveText(words[index + 1]!.text);
  });

  test('undo and redo survive reloads', async ({ page }) => {
    const id = await openDemoVideo(page);
    const { words } = await fetchTranscript(page, id);
    const a = findPhrase(words, 'welcome');
    const b = findPhrase(words, 'moment');
    const textAt = async (i: number) => (await fetchTranscript(page, id)).words[i]!.text;
    const reloadOnceSaved = async (historyIndex: number) => {
      await expect.poll(() => persistedHistoryIndex(page, id)).toBe(historyIndex);
      await page.reload();
      await waitForTranscript(page);
    };

    await editWord(page, a, 'hello');
    await editWord(page, b, 'instant');
    await expect.poll(() => textAt(a)).toBe('hello');
    await expect.poll(() => textAt(b)).toBe('instant');
    await reloadOnceSaved(2);

    await expect(wordAt(page, b)).toHaveText('instant');
    await expect(page.getByTestId('undo-count')).toHaveText('2');
    await expect(page.getByTestId('redo-count')).toHaveText('0');
    await wordAt(page, 0).focus();
    await page.keyboard.press('Control+z');
    await expect(wordAt(page, b)).toHaveText(words[b]!.text);
    await expect(wordAt(page, a)).toHaveText('hello');
    await expect.poll(() => textAt(b)).toBe(words[b]!.text);
    expect(await textAt(a)).toBe('hello');
    await reloadOnceSaved(1);

    await expect(page.getByTestId('undo-count')).toHaveText('1');
    await expect(page.getByTestId('redo-count')).toHaveText('1');
    await expect(wordAt(page, b)).toHaveText(words[b]!.text);
    await wordAt(page, 0).focus();
    await page.keyboard.press('Control+Shift+Z');
    await expect(wordAt(page, b)).toHaveText('instant');
    await expect(page.getByTestId('undo-count')).toHaveText('2');
    await expect(page.getByTestId('redo-count')).toHaveText('0');
    await expect.poll(() => textAt(b)).toBe('instant');
  });

  test('searches, steps to the next result and replaces only it', async ({ page }) => {
    const id = await openDemoVideo(page);
    const { words } = await fetchTranscript(page, id);
    const hits = words.flatMap((w, i) => (w.text.toLowerCase().includes('you') ? [i] : []));
    expect(hits.length).toBeGreaterThanOrEqual(3);

    await page.getByLabel('Search transcript').fill('you');
    const count = page.getByTestId('search-count');
    await expect(count).toHaveText(`1 of ${hits.length}`);
    await expect(wordAt(page, hits[0]!)).toHaveClass(/wc-word--found-current/);
    // Enter in the search box steps to the next result (the arrow buttons have no accessible name)
    await page.getByLabel('Search transcript').press('Enter');
    await expect(count).toHaveText(`2 of ${hits.length}`);
    const target = hits[1]!;
    await expect(wordAt(page, target)).toHaveClass(/wc-word--found-current/);

    await page.getByLabel('Replace with').fill('we');
    await page.getByTestId('replace').click();
    const original = words[target]!.text;
    const at = original.toLowerCase().indexOf('you');
    const expected = `${original.slice(0, at)}we${original.slice(at + 'you'.length)}`;
    await expect(wordAt(page, target)).toHaveText(expected);
    await expect(count).toHaveText(new RegExp(` of ${hits.length - 1}$`));
    await expect.poll(async () => (await fetchTranscript(page, id)).words[target]!.text).toBe(expected);

    const saved = await fetchTranscript(page, id);
    for (const i of hits.filter((i) => i !== target)) {
      expect(saved.words[i]!.text).toBe(words[i]!.text);
      await expect(wordAt(page, i)).toHaveText(words[i]!.text);
    }
    expect(saved.words).toHaveLength(words.length);
  });

  test('lays out an Arabic transcript right to left', async ({ page }) => {
    await openDemoVideo(page, { lang: 'ar' });
    const group = page.getByRole('group', { name: 'Transcript words' });
    await expect(group).toHaveAttribute('dir', 'rtl');
    await expect(group).toHaveAttribute('lang', 'ar');

    const paragraph = page.getByTestId('transcript-paragraph').first().getByTestId('transcript-word');
    const first = await paragraph.nth(0).boundingBox();
    const second = await paragraph.nth(1).boundingBox();
    if (!first || !second) throw new Error('the first two words of the paragraph are not laid out');
    expect(first.x, `first word at x=${first.x}, second spans x=${second.x}..${second.x + second.width}`).toBeGreaterThanOrEqual(
      second.x + second.width,
    );
  });

  test('rolls a word edit back when the save fails on a stale version', async ({ page }) => {
    const id = await openDemoVideo(page);
    const transcript = await fetchTranscript(page, id);
    const other = findPhrase(transcript.words, 'recording');
    const index = findPhrase(transcript.words, 'welcome');
    const original = transcript.words[index]!.text;

    // another client edits first, so the version the editor holds is stale
    const patched = await page.request.patch(`/api/transcripts/${transcript.id}`, { headers: await authHeaders(page),
      data: { version: transcript.version, wordDeltas: [{ word_order: transcript.words[other]!.word_order, changes: { text: 'archive.' } }] },
    });
    expect(patched.ok()).toBe(true);

    await editWord(page, index, 'greetings');
    const failed = toastTitled(page, 'Update failed');
    await expect(failed).toBeVisible();
    await expect(failed.locator('.wc-toast__description')).toHaveText('Failed to save changes. Your edit has been reverted.');
    await expect(wordAt(page, index)).toHaveText(original);
    await expect(page.getByTestId('undo-count')).toHaveText('0');

    const saved = await fetchTranscript(page, id);
    expect(saved.words[index]!.text).toBe(original);
    expect(saved.words[other]!.text).toBe('archive.');
    expect(saved.version).toBe(transcript.version + 1);
  });
});
