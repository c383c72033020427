/**
 * Over 400 lines: one file per theme of the e2e suite; these share the layout and axe helpers.
 *
 * Everyday editing for mouse, keyboard and screen-reader users, in Chromium against the real stack:
 * reorder shows the new order at once, the selection toolbar sits by the selection, undo covers
 * marks, mute levels are offered with their keys, focus is never lost, and axe-core finds no
 * serious or critical violations in the editor, its dialogs, the context menu and reorder mode.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import {
  expectToastShown,
  fetchTranscript,
  JOB_TIMEOUT_MS,
  normalise,
  openDemoVideo,
  pressElsewhere,
  recordToasts,
  waitForJobToFinish,
  wordAt,
} from './editor-helpers';
import type { ApiTranscript } from './editor-helpers';

const TEST_TIMEOUT_MS = 180_000;

/** Serious and critical WCAG 2.1 A/AA violations (axe-core) on the page as it is, as readable lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Each paragraph's words, normalised, as the API holds them. */
function apiParagraphs(t: ApiTranscript): string[] {
  return t.paragraphs.map((p) => p.wordIndices.map((i) => normalise(t.words[i]!.text)).join(' '));
}

/** Each paragraph's words, normalised, as the transcript panel shows them. */
function shownParagraphs(page: Page): Promise<string[]> {
  return page.getByTestId('transcript-paragraph').evaluateAll((paragraphs) =>
    paragraphs.map((p) =>
      Array.from(p.querySelectorAll('[data-testid="transcript-word"]'))
        .map((w) => (w.textContent ?? '').toLocaleLowerCase().replace(/[^\p{L}\p{N}']/gu, ''))
        .join(' '),
    ),
  );
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'element is rendered').not.toBeNull();
  return box!;
}

/** What has keyboard focus, as a short description for assertions. */
function focused(page: Page): Promise<{ tag: string; testId: string | null; text: string; inside: string | null }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName ?? '',
      testId: el?.getAttribute('data-testid') ?? null,
      text: (el?.textContent ?? '').trim(),
      inside: el?.parentElement?.closest('[data-testid]')?.getAttribute('data-testid') ?? null,
    };
  });
}

/** Presses Tab (or Shift+Tab) until the focused element matches, at most `max` times. */
async function tabTo(page: Page, matches: (f: Awaited<ReturnType<typeof focused>>) => boolean, { shift = false, max = 80 } = {}): Promise<void> {
  for (let k = 0; k < max; k++) {
    if (matches(await focused(page))) return;
    await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`focus never reached the element: last ${JSON.stringify(await focused(page))}`);
}

/** The paragraph a word is in (its index in the API transcript). */
function paragraphOf(t: ApiTranscript, word: number): number {
  return t.paragraphs.findIndex((p) => p.wordIndices.includes(word));
}

test.describe('editing for everyone', () => {
  test.describe.configure({ timeout: TEST_TIMEOUT_MS });
  test.beforeEach(async ({ page }) => {
    await recordToasts(page);
  });

  test('reorder: focus follows the moved paragraph, it is announced, and the transcript shows the new order without a reload; nothing autoplays', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const id = await openDemoVideo(page);
    const before = await fetchTranscript(page, id);
    expect(before.paragraphs.length).toBeGreaterThanOrEqual(2);
    const texts = apiParagraphs(before);
    expect(await shownParagraphs(page)).toEqual(texts);

    await page.getByTestId('reorder-segments').click();
    const panel = page.getByTestId('reorder-panel');
    await expect(panel).toBeVisible();
    // entering reorder mode puts focus on the first paragraph's handle
    await expect(page.getByTestId('reorder-handle').first()).toBeFocused();
    expect(await seriousViolations(page), 'reorder mode').toEqual([]);

    // the second paragraph up: focus stays with it, and its new place is announced
    await page.getByTestId('reorder-up').nth(1).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('reorder-item').first()).toHaveAttribute('data-paragraph', '1');
    await expect(page.getByTestId('reorder-announcement')).toHaveText(`Paragraph 2 moved to position 1 of ${before.paragraphs.length}.`);
    expect((await focused(page)).inside).toBe('reorder-item');
    await page.screenshot({ path: testInfo.outputPath('reorder-mode.png') });
    await expect(page.getByTestId('reorder-item').first().locator(':focus')).toHaveCount(1);

    await panel.getByRole('button', { name: 'Apply Reorder' }).click();
    const confirm = page.getByTestId('reorder-confirm');
    await expect(confirm).toBeVisible();
    expect(await seriousViolations(page), 'reorder confirmation dialog').toEqual([]);
    // every start of playback from here on is counted (media events reach a capturing document listener)
    const streamBefore = await page.getByTestId('video-player').getAttribute('src');
    await page.evaluate(() => {
      const w = window as unknown as { __plays: number };
      w.__plays = 0;
      document.addEventListener('play', () => (w.__plays += 1), true);
    });
    await confirm.getByRole('button', { name: 'Start Reordering' }).click();
    await waitForJobToFinish(page);
    await expect(panel).toHaveCount(0, { timeout: 10_000 });

    // the transcript shows every paragraph, in the new order, with no reload
    const after = await fetchTranscript(page, id);
    const textsAfter = apiParagraphs(after);
    expect(textsAfter[0]).toBe(texts[1]);
    expect(textsAfter[1]).toBe(texts[0]);
    await expect.poll(() => shownParagraphs(page), { timeout: 15_000 }).toEqual(textsAfter);
    // focus is back in the editor (the transcript, once the job's dialog has closed), not on the page
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid="transcript-editor"]') != null)).toBe(true);
    // and the video does not start by itself: once the new render is loaded and back at its start, it never played
    await expect(page.getByTestId('video-player')).not.toHaveAttribute('src', streamBefore!);
    await expect
      .poll(() => page.evaluate(() => {
        const v = document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!;
        return v.readyState >= HTMLMediaElement.HAVE_METADATA && !v.seeking && v.currentTime === 0;
      }), { timeout: 15_000 })
      .toBe(true);
    expect(await page.evaluate(() => ({
      paused: document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!.paused,
      plays: (window as unknown as { __plays: number }).__plays,
    }))).toEqual({ paused: true, plays: 0 });
  });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    test(`the selection toolbar sits by the selected words, not over them, the lines next to them or the first paragraph, comes next in tab order and closes on a press elsewhere (${viewport.width}x${viewport.height})`, async ({ page }, testInfo) => {
      await page.setViewportSize(viewport);
      const id = await openDemoVideo(page);
      const t = await fetchTranscript(page, id);
      expect(t.paragraphs.length).toBeGreaterThanOrEqual(3);
      const paragraph = t.paragraphs[2]!;
      const first = paragraph.wordIndices[1]!;
      const last = paragraph.wordIndices[3]!;
      await wordAt(page, first).scrollIntoViewIfNeeded();
      await wordAt(page, first).click();
      await wordAt(page, last).click({ modifiers: ['Shift'] });
      const toolbar = page.getByTestId('selection-toolbar');
      await expect(toolbar).toBeVisible();
      await expect(toolbar).toHaveCSS('visibility', 'visible');
      await page.screenshot({ path: testInfo.outputPath(`selection-toolbar-${viewport.width}.png`) });

      const bar = await boxOf(toolbar);
      for (let i = first; i <= last; i++) expect(overlaps(bar, await boxOf(wordAt(page, i))), `toolbar over word ${i}`).toBe(false);
      expect(overlaps(bar, await boxOf(page.getByTestId('transcript-paragraph').first())), 'toolbar over the first paragraph').toBe(false);
      const selected = await boxOf(wordAt(page, first));
      expect(Math.abs(bar.y + bar.height - selected.y) < 60 || Math.abs(bar.y - (selected.y + selected.height)) < 60, 'toolbar next to the selection').toBe(true);
      expect(paragraphOf(t, first)).toBe(2);
      // what a person sees: no word of the line right above or right below the selection is under it
      const lastBox = await boxOf(wordAt(page, last));
      const around = await page.evaluate(([top, bottom]) => {
        const boxes = Array.from(document.querySelectorAll('[data-word-index]:not(.wc-word--selected)')).map((el) => el.getBoundingClientRect());
        const above = boxes.filter((b) => b.bottom <= top + 2);
        const below = boxes.filter((b) => b.top >= bottom - 2);
        const lineAbove = Math.max(...above.map((b) => b.bottom));
        const lineBelow = Math.min(...below.map((b) => b.top));
        return [...above.filter((b) => b.bottom >= lineAbove - 2), ...below.filter((b) => b.top <= lineBelow + 2)].map((b) => ({ x: b.x, y: b.y, width: b.width, height: b.height }));
      }, [selected.y, lastBox.y + lastBox.height] as const);
      expect(around.length).toBeGreaterThan(0);
      expect(around.filter((w) => overlaps(bar, w)), 'words of the neighbouring lines under the toolbar').toEqual([]);

      // the mute levels are on it with their keys
      const mute = toolbar.getByRole('group', { name: 'Mute' });
      await expect(mute.getByRole('button', { name: 'Silence 1' })).toBeVisible();
      await expect(mute.getByRole('button', { name: 'Whisper 2' })).toBeVisible();
      await expect(mute.getByRole('button', { name: 'Background 3' })).toBeVisible();

      // keyboard: the toolbar comes right after the selected words
      await wordAt(page, last).focus();
      await page.keyboard.press('Tab');
      expect((await focused(page)).inside).toBe('selection-toolbar');
      // Alt+F10 from the words reaches it too
      await wordAt(page, last).focus();
      await page.keyboard.press('Alt+F10');
      await expect(toolbar.getByRole('button').first()).toBeFocused();

      // a press elsewhere (no word, no control) closes it
      await pressElsewhere(page);
      await expect(toolbar).toHaveCount(0);
    });
  }

  test('"?" opens the shortcut sheet (also from the toolbar), which lists the registry and passes axe; Space plays and pauses in the transcript', async ({ page }, testInfo) => {
    const id = await openDemoVideo(page);
    const t = await fetchTranscript(page, id);
    const word = wordAt(page, t.paragraphs[0]!.wordIndices[1]!);
    await word.focus();
    const paused = () => page.locator('video').first().evaluate((v: HTMLVideoElement) => v.paused);
    expect(await paused()).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(paused).toBe(false);
    await expect(word).toBeFocused();
    // Space did not select the word: Shift+Space does
    await expect(word).not.toHaveClass(/wc-word--selected/);
    await page.keyboard.press('Space');
    await expect.poll(paused).toBe(true);
    await page.keyboard.press('Shift+Space');
    await expect(word).toHaveClass(/wc-word--selected/);

    await page.keyboard.press('?');
    const sheet = page.getByTestId('shortcut-sheet');
    await expect(sheet.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeVisible();
    for (const [label, key] of [['Play or pause', 'Space'], ['Undo', 'Ctrl+Z'], ['Mute: Whisper', '2'], ['Keyboard shortcuts', '?']] as const) {
      const row = sheet.locator('.wc-shortcut-sheet__row').filter({ has: page.getByText(label, { exact: true }) });
      await expect(row.locator('kbd').first()).toHaveText(key);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await sheet.screenshot({ path: testInfo.outputPath('shortcut-sheet.png') });
    await page.keyboard.press('Escape');
    await expect(sheet).toHaveCount(0);
    // focus is back where it was, and the toolbar button opens the same sheet
    await expect(word).toBeFocused();
    await page.getByTestId('keyboard-shortcuts').click();
    await expect(sheet).toBeVisible();
    await sheet.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByTestId('keyboard-shortcuts')).toBeFocused();
  });

  test('Delete then Ctrl+Z restores the word, the Undo count agrees; Cancel Cuts is undoable and keeps focus; Restore Word', async ({ page }) => {
    const id = await openDemoVideo(page);
    const t = await fetchTranscript(page, id);
    const index = t.paragraphs[0]!.wordIndices[2]!;
    const word = wordAt(page, index);
    const undoCount = page.getByTestId('undo-count');
    const redoCount = page.getByTestId('redo-count');
    await expect(undoCount).toHaveText('0');

    await word.click();
    await page.keyboard.press('Delete');
    await expect(word).toHaveClass(/wc-word--cut/);
    await expect(undoCount).toHaveText('1');
    await page.keyboard.press('Control+z');
    await expect(word).not.toHaveClass(/wc-word--cut/);
    await expect(undoCount).toHaveText('0');
    await expect(redoCount).toHaveText('1');
    await page.keyboard.press('Control+Shift+z');
    await expect(word).toHaveClass(/wc-word--cut/);
    await expect(undoCount).toHaveText('1');
    await page.getByTestId('undo').click();
    await expect(word).not.toHaveClass(/wc-word--cut/);
    await expect(undoCount).toHaveText('0');

    // Cancel Cuts drops the marks as one undoable step, and focus stays in the editor
    await word.click();
    await page.keyboard.press('Delete');
    await expect(undoCount).toHaveText('1');
    await page.getByTestId('pending-cuts-bar').getByRole('button', { name: 'Cancel Cuts' }).click();
    await expect(word).not.toHaveClass(/wc-word--cut/);
    await expect(undoCount).toHaveText('2');
    await expect.poll(async () => (await focused(page)).tag).not.toBe('BODY');
    await expect(word).toBeFocused();
    await page.keyboard.press('Control+z');
    await expect(word).toHaveClass(/wc-word--cut/);
    await expect(undoCount).toHaveText('1');

    // Restore Word in the menu takes the mark away (undoable too)
    await word.click({ button: 'right' });
    const menu = page.getByTestId('word-menu');
    await expect(menu).toBeVisible();
    await menu.getByRole('menuitem', { name: 'Restore Word' }).click();
    await expect(word).not.toHaveClass(/wc-word--cut/);
    await expect(undoCount).toHaveText('2');
    await page.keyboard.press('Control+z');
    await expect(word).toHaveClass(/wc-word--cut/);
  });

  test('mutes a word as whisper from the menu, which shows the levels with their keys; the menu leaves nothing hidden but focusable', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    const id = await openDemoVideo(page);
    const t = await fetchTranscript(page, id);
    const index = t.paragraphs[0]!.wordIndices[1]!;
    const word = wordAt(page, index);
    expect(await seriousViolations(page), 'editor').toEqual([]);

    await word.click({ button: 'right' });
    const menu = page.getByTestId('word-menu');
    await expect(menu).toBeVisible();
    await menu.getByRole('menuitem', { name: 'Mute Word', exact: true }).click();
    const levels = page.getByTestId('menu-mute-levels');
    await expect(levels).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('word-menu-mute-levels.png') });
    await expect(levels.getByRole('menuitem', { name: 'Silence 1' })).toBeVisible();
    await expect(levels.getByRole('menuitem', { name: 'Whisper 2' })).toBeVisible();
    await expect(levels.getByRole('menuitem', { name: 'Background 3' })).toBeVisible();
    expect(await seriousViolations(page), 'context menu').toEqual([]);
    // picked with the keyboard: ArrowRight opens the levels on the first, ArrowDown moves to Whisper
    await menu.getByRole('menuitem', { name: 'Mute Word', exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(levels.getByRole('menuitem', { name: 'Silence 1' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(levels.getByRole('menuitem', { name: 'Whisper 2' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu).toHaveCount(0);
    await expect(word).toHaveClass(/wc-word--mute-whisper/);
    // the closed menu gives focus back to the word
    await expect(word).toBeFocused();
    await expect(page.getByTestId('pending-mutes-bar')).toBeVisible();
    await expect(page.getByTestId('undo-count')).toHaveText('1');

    // the Process Audio confirmation dialog
    await page.getByTestId('pending-mutes-bar').getByRole('button', { name: /^Process Audio with/ }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toBeVisible();
    expect(await seriousViolations(page), 'mute confirmation dialog').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    // the dialog gives focus back to what opened it
    await expect(page.getByTestId('pending-mutes-bar').getByRole('button', { name: /^Process Audio with/ })).toBeFocused();
  });

  test('focus alone changes nothing: tabbing onto Quick Export keeps the player as it is; a disabled Publish says why', async ({ page }) => {
    await openDemoVideo(page);
    // a new video has nothing to publish: the button says so to keyboard and screen-reader users
    const publish = page.getByRole('button', { name: 'Publish changes' });
    await expect(publish).toHaveAttribute('aria-disabled', 'true');
    await expect(publish).toHaveAccessibleDescription(/Nothing to publish yet/);

    const square = page.getByTestId('quick-export-square');
    await square.focus();
    await square.hover();
    await expect(page.getByTestId('reframe-overlay')).toHaveCount(0);
    await page.getByTestId('quick-export-story').focus();
    await expect(page.getByTestId('reframe-overlay')).toHaveCount(0);
    // the buttons say what they need (a selection)
    await expect(square).toHaveAccessibleDescription('Select words in the transcript, then pick a format.');
  });

  test('keyboard only: cuts a word, undoes it, mutes one as whisper, reorders two paragraphs and publishes', async ({ page }) => {
    const id = await openDemoVideo(page);
    const before = await fetchTranscript(page, id);
    const texts = apiParagraphs(before);
    // Tab into the transcript: one tab stop, on the first word
    await tabTo(page, (f) => f.testId === 'transcript-word', { max: 150 });
    const start = Number(await page.evaluate(() => (document.activeElement as HTMLElement).dataset['wordIndex']));
    await page.keyboard.press('ArrowRight');
    const cutIndex = start + 1;
    await expect(wordAt(page, cutIndex)).toBeFocused();
    await page.keyboard.press('Delete');
    await expect(wordAt(page, cutIndex)).toHaveClass(/wc-word--cut/);
    await page.keyboard.press('Control+z');
    await expect(wordAt(page, cutIndex)).not.toHaveClass(/wc-word--cut/);
    await expect(page.getByTestId('undo-count')).toHaveText('0');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('2');
    await expect(wordAt(page, cutIndex + 1)).toHaveClass(/wc-word--mute-whisper/);

    // reorder the first two paragraphs
    await tabTo(page, (f) => f.testId === 'reorder-segments', { shift: true });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('reorder-handle').first()).toBeFocused();
    // the first paragraph's up arrow is disabled: the first one reached is the second paragraph's
    await tabTo(page, (f) => f.testId === 'reorder-up');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('reorder-item').first()).toHaveAttribute('data-paragraph', '1');
    await tabTo(page, (f) => f.testId === 'apply-reorder', { shift: true });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('reorder-confirm')).toBeVisible();
    await tabTo(page, (f) => f.text === 'Start Reordering');
    await page.keyboard.press('Enter');
    await waitForJobToFinish(page);
    await expect(page.getByTestId('reorder-panel')).toHaveCount(0, { timeout: 10_000 });
    const after = await fetchTranscript(page, id);
    expect(apiParagraphs(after)[0]).toBe(texts[1]);
    await expect.poll(() => shownParagraphs(page), { timeout: 15_000 }).toEqual(apiParagraphs(after));
    await expect.poll(async () => (await focused(page)).tag).not.toBe('BODY');

    // publish
    await tabTo(page, (f) => f.text === 'Publish changes', { shift: true, max: 150 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Publish changes' });
    await expect(dialog).toBeVisible();
    await tabTo(page, (f) => /^Publish \d+ Item\(s\)$/.test(f.text));
    await page.keyboard.press('Enter');
    await expectToastShown(page, 'Export Started');
    const progress = page.getByRole('dialog').filter({ hasText: /Exporting to|Export Complete/ });
    await expect(progress.getByRole('heading', { name: 'Export Complete' })).toBeVisible({ timeout: JOB_TIMEOUT_MS });
    await tabTo(page, (f) => /^(close|done)$/i.test(f.text));
    await page.keyboard.press('Enter');
    await expect(progress).toHaveCount(0);
    // the closed progress dialog gives focus back to the page, not the body
    await expect.poll(async () => (await focused(page)).tag).not.toBe('BODY');
  });
});
