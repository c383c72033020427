import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page, Request, TestInfo } from '@playwright/test';
import { expectToastShown, fetchTranscript, fetchVideo, findPhrase, openDemoVideo, recordToasts, waitForJobToFinish, wordAt } from './editor-helpers';

/**
 * Layout and access in Chromium against the real backend: the editor at 1440x900 and 1024x768
 * (the player stays in view, a compact toolbar, ruler labels that never touch), the captions
 * track, what a finished job fetches again, clips (announced when ready, deleted only after a
 * confirmation), the upload page's heading, the KeyClips panel as a modal dialog, and axe-core
 * scans with no serious or critical violation.
 */

const TEST_TIMEOUT_MS = 150_000;
const SMALL = { width: 1024, height: 768 };
/** Where the screenshots go: LAYOUT_SHOTS_DIR when set, else the test's output folder. */
const shot = (testInfo: TestInfo, name: string) => (process.env['LAYOUT_SHOTS_DIR'] ? `${process.env['LAYOUT_SHOTS_DIR']}/${name}` : testInfo.outputPath(name));
const LARGE = { width: 1440, height: 900 };

/** Serious and critical WCAG 2.1 A/AA violations of what is on screen (axe-core), as readable lines. */
async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join(', ')})`);
}

/** The ruler labels the timeline drew ('text@left-right' each, in CSS pixels). */
async function tickLabels(page: Page): Promise<Array<{ text: string; left: number; right: number }>> {
  const raw = (await page.getByTestId('waveform-canvas').getAttribute('data-tick-labels')) ?? '';
  return raw
    .split(' ')
    .filter(Boolean)
    .map((item) => {
      const [text, box] = item.split('@') as [string, string];
      const [left, right] = box.split('-').map(Number) as [number, number];
      return { text, left, right };
    });
}

/**
 * The page's API traffic from now on. settled() waits until no API call has been in flight, nor
 * started, for `quietMs` (Playwright's network-idle rule); a media stream counts once its
 * answer has begun, since the player reads its body for as long as it likes.
 */
function apiActivity(page: Page, quietMs = 500) {
  const open = new Set<Request>();
  let last = Date.now();
  const isApi = (r: Request) => new URL(r.url()).pathname.startsWith('/api/');
  const done = (r: Request) => {
    if (open.delete(r)) last = Date.now();
  };
  page.on('request', (r) => {
    if (!isApi(r)) return;
    open.add(r);
    last = Date.now();
  });
  page.on('response', (r) => {
    if (/\/stream\//.test(new URL(r.url()).pathname)) done(r.request());
  });
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    settled: () => expect.poll(() => open.size === 0 && Date.now() - last >= quietMs, { timeout: 15_000, intervals: [100] }).toBe(true),
  };
}

async function selectRun(page: Page, first: number, last: number) {
  await wordAt(page, first).click();
  await wordAt(page, last).click({ modifiers: ['Shift'] });
  await expect(wordAt(page, last)).toHaveClass(/wc-word--selected/);
}

test.describe('layout and access', () => {
  test.describe.configure({ timeout: TEST_TIMEOUT_MS });

  test('the upload page has one h1 and no serious axe violations', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('upload-form')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Upload a video');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('at 1024x768 the player stays in view, the toolbar is compact and the ruler labels never touch', async ({ page }, testInfo) => {
    await page.setViewportSize(SMALL);
    await openDemoVideo(page);
    const player = page.getByTestId('video-player');
    await expect(player).toBeVisible();
    await page.screenshot({ path: shot(testInfo, 'editor-1024x768.png') });

    // the toolbar leaves room: the first word is at most a few toolbar rows below the toolbar's top
    const toolbar = (await page.getByTestId('editor-toolbar').boundingBox())!;
    expect(toolbar.height).toBeLessThanOrEqual(145);
    // its rows still reach assistive technology as named toolbars
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: Array<{ role?: { value?: string }; name?: { value?: string } }> };
    const toolbars = nodes.filter((n) => n.role?.value === 'toolbar').map((n) => n.name?.value);
    expect(toolbars).toEqual(expect.arrayContaining(['Transcript view', 'Transcript actions']));
    // and nothing in the transcript card is wider than the card
    const overflow = await page.getByTestId('transcript-panel').evaluate((card) => card.scrollWidth - card.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // scrolling the page (and the transcript) to its end keeps the player on screen
    await page.evaluate(() => {
      document.querySelector('.wc-transcript__scroll')?.scrollTo({ top: 1e6 });
      window.scrollTo({ top: document.documentElement.scrollHeight });
    });
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    const box = (await player.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(SMALL.height);
    await page.screenshot({ path: shot(testInfo, 'editor-1024x768-scrolled.png') });

    // zoomed in, the ruler labels are thinned so that none touches the next
    for (let i = 0; i < 4; i++) await page.getByTestId('timeline-zoom-in').click();
    await expect(page.getByTestId('timeline-zoom')).toHaveText('16x');
    await expect.poll(async () => (await tickLabels(page)).length).toBeGreaterThanOrEqual(2);
    const labels = await tickLabels(page);
    for (let i = 1; i < labels.length; i++) expect(labels[i]!.left, `${labels[i - 1]!.text} | ${labels[i]!.text}`).toBeGreaterThan(labels[i - 1]!.right);

    expect(await seriousViolations(page)).toEqual([]);
  });

  test('at 1440x900 the search field shows its whole placeholder and axe finds nothing serious', async ({ page }, testInfo) => {
    await page.setViewportSize(LARGE);
    await openDemoVideo(page);
    await page.screenshot({ path: shot(testInfo, 'editor-1440x900.png'), fullPage: true });
    const search = page.getByPlaceholder('Search transcript');
    const fits = await search.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return ctx.measureText(input.placeholder).width <= room;
    });
    expect(fits).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('the player carries the subtitles as a captions track that follows the media version, and a finished job fetches each thing once', async ({ page }) => {
    await page.setViewportSize(LARGE);
    const id = await openDemoVideo(page);
    const track = page.locator('[data-testid="video-player"] track[kind="captions"]');
    await expect(track).toHaveCount(1);
    const firstSrc = (await track.getAttribute('src'))!;
    const vtt = await page.request.get(firstSrc);
    expect(vtt.ok()).toBe(true);
    expect(await vtt.text()).toMatch(/^WEBVTT/);
    const streamBefore = await page.getByTestId('video-player').getAttribute('src');

    // cut a run of words and process it, counting what the page asks for meanwhile
    const before = await fetchTranscript(page, id);
    const first = findPhrase(before.words, 'linked to its moment');
    await selectRun(page, first, first + 1);
    await page.keyboard.press('Delete');
    const counted: string[] = [];
    const aborted: string[] = [];
    const watched = new RegExp(`/api/videos/${id}/(stream|transcript|clips|waveform)`);
    const kindOf = (request: Request) => watched.exec(request.url())?.[1] ?? null;
    const api = apiActivity(page);
    page.on('request', (request) => {
      const kind = kindOf(request);
      if (kind) counted.push(kind);
    });
    page.on('requestfailed', (request) => {
      const kind = kindOf(request);
      if (kind && kind !== 'stream') aborted.push(`${kind}: ${request.failure()?.errorText ?? ''}`);
    });
    await page.getByTestId('pending-cuts-bar').getByRole('button', { name: /^Process Video with/ }).click();
    await page.getByTestId('confirm-cuts').getByRole('button', { name: 'Process Video' }).click();
    await waitForJobToFinish(page);
    // the page has taken the new version, then its queries have settled
    await expect(page.getByTestId('video-player')).not.toHaveAttribute('src', streamBefore!);
    await api.settled();

    const count = (kind: string) => counted.filter((k) => k === kind).length;
    const summary = `requests after the job: ${JSON.stringify(counted)}; failed: ${JSON.stringify(aborted)}`;
    console.log(summary);
    expect(count('transcript'), summary).toBeLessThanOrEqual(1);
    expect(count('clips'), summary).toBeLessThanOrEqual(1);
    expect(count('waveform'), summary).toBeLessThanOrEqual(1);
    expect(count('stream'), summary).toBeLessThanOrEqual(4);
    expect(counted.length, summary).toBeLessThanOrEqual(7);
    expect(aborted, summary).toEqual([]);

    // the new media version plays, with its own captions track
    const video = await fetchVideo(page, id);
    expect(video.status).toBe('completed');
    await expect(page.getByTestId('video-player')).not.toHaveAttribute('src', streamBefore!);
    await expect(track).toHaveCount(1);
    await expect(track).not.toHaveAttribute('src', firstSrc);
  });

  test('a finished clip is announced, and Delete asks before it deletes', async ({ page }) => {
    await recordToasts(page);
    await page.setViewportSize(SMALL);
    const id = await openDemoVideo(page);
    const t = await fetchTranscript(page, id);
    const first = findPhrase(t.words, 'linked to its moment');
    await selectRun(page, first, first + 3);
    await page.getByTestId('quick-export-square').click();
    await expectToastShown(page, 'Clip created');
    const item = page.getByTestId('clip-item').first();
    await expect(item).toHaveAttribute('data-status', 'completed', { timeout: 90_000 });
    const ready = await expectToastShown(page, 'Clip ready');
    const name = (await item.locator('.wc-clip__name').textContent())!;
    expect(ready.description).toBe(`${name} is ready to download.`);
    await expect(page.getByTestId('clips-announcement')).toHaveText(`Clip ready: ${name}`);

    const remove = item.getByRole('button', { name: `Delete ${name}` });
    await remove.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('delete-clip-dialog');
    await expect(dialog).toBeVisible();
    expect(await seriousViolations(page, '[data-testid="delete-clip-dialog"]')).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(item).toBeVisible();
    await expect(remove).toBeFocused();

    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Delete clip' }).click();
    await expect(page.getByTestId('clip-item')).toHaveCount(0);
    await expect(page.getByTestId('generated-clips').getByRole('heading', { level: 2 })).toBeFocused();
  });

  test('the KeyClips panel keeps focus inside, closes on Escape and gives focus back', async ({ page }) => {
    await page.setViewportSize(SMALL);
    await openDemoVideo(page);
    const opener = page.getByRole('toolbar', { name: 'Editor actions' }).getByRole('button', { name: 'Find Key Moments' });
    await opener.click();
    const panel = page.getByRole('dialog', { name: 'KeyClips' });
    await expect(panel.getByRole('heading', { name: 'Discover Engaging Moments' })).toBeVisible();
    expect(await seriousViolations(page, '[data-testid="keyclips-panel"]')).toEqual([]);

    const focusInside = () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="keyclips-panel"]'));
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInside()).toBe(true);
    }
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInside()).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(opener).toBeFocused();
  });
});
