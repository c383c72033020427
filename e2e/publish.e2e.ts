/**
 * Publishing end to end in Chromium against the real stack and the provider sandbox:
 * edit a video, publish the main video, its subtitles and a clip, and find them in the sandbox's
 * library; clone, then publish to the new video; a reload while an export runs follows it again;
 * revert to the original.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import {
  authHeaders,
  demoVideoFile,
  editWord,
  expectToastShown,
  fetchTranscript,
  fetchVideo,
  findPhrase,
  JOB_TIMEOUT_MS,
  openDemoVideo,
  recordToasts,
  toastTitled,
  waitForJobToFinish,
  wordAt,
} from './editor-helpers';
import type { LibraryVideo } from '../tools/provider-sandbox/sandbox';

const TEST_TIMEOUT_MS = 180_000;
const sandboxUrl = (): string => (process.env['PROVIDER_SANDBOX_URL'] ?? '').replace(/\/+$/, '');

async function library(page: Page): Promise<LibraryVideo[]> {
  const res = await page.request.get(`${sandboxUrl()}/api/library`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { videos: LibraryVideo[] }).videos;
}

/** Cuts a run of words through the transcript editor and waits for the render. */
async function cutWords(page: Page, first: number, last: number): Promise<void> {
  await wordAt(page, first).click();
  await wordAt(page, last).click({ modifiers: ['Shift'] });
  await page.keyboard.press('Delete');
  await page.getByTestId('pending-cuts-bar').getByRole('button', { name: /^Process Video with/ }).click();
  await page.getByTestId('confirm-cuts').getByRole('button', { name: 'Process Video' }).click();
  await waitForJobToFinish(page);
}

/** Waits for the export progress dialog to finish successfully and closes it. */
async function exportCompletes(page: Page): Promise<void> {
  const progress = page.getByRole('dialog').filter({ hasText: /Exporting to|Export Complete/ });
  await expect(progress.getByRole('heading', { name: 'Export Complete' })).toBeVisible({ timeout: JOB_TIMEOUT_MS });
  await expectToastShown(page, 'Export Complete');
  await progress.getByRole('button', { name: /close|done/i }).first().click();
  await expect(progress).toHaveCount(0);
}

test.describe('publishing to the provider', () => {
  test.describe.configure({ timeout: TEST_TIMEOUT_MS });
  test.beforeEach(async ({ page }) => {
    await recordToasts(page);
  });

  test('publishes the edited main video, its subtitles and a clip; they are in the provider library', async ({ page }) => {
    const id = await openDemoVideo(page);
    const { words } = await fetchTranscript(page, id);
    const first = findPhrase(words, 'linked to its moment');
    await cutWords(page, first, first + 3);

    // a clip of the edited video (the clip dialog itself is covered by the player tests)
    const clipRes = await page.request.post('/api/clips', { headers: await authHeaders(page), data: { videoId: id, name: 'Publish moment', startTime: 1, endTime: 4, aspectRatio: '1:1' } });
    expect(clipRes.ok()).toBe(true);
    await expect
      .poll(async () => ((await (await page.request.get(`/api/videos/${id}/clips`, { headers: await authHeaders(page) })).json()) as { status: string }[])[0]?.status, { timeout: JOB_TIMEOUT_MS })
      .toBe('completed');
    // the clip was made behind the page's back: a reload shows it, as it would for a person
    await page.reload();
    await expect(page.getByTestId('transcript-word').first()).toBeVisible();

    const publish = page.getByRole('button', { name: 'Publish changes' });
    await expect(page.getByRole('button', { name: 'Revert to Original' })).toBeVisible();
    await expect(publish).toBeEnabled({ timeout: 15_000 });
    await publish.click();
    const dialog = page.getByRole('dialog', { name: 'Publish changes' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Main Video', { exact: true })).toBeVisible();
    await expect(dialog.getByText('Subtitles', { exact: true }).first()).toBeVisible();
    await expect(dialog.getByText(/Clips/).first()).toBeVisible();
    await expect(dialog.getByText('Publish moment')).toBeVisible();
    await expect(dialog.getByText('Publish changes to new video (clone)')).toBeVisible();

    // select all off: nothing selected, the alert and a disabled confirm; on again: all three
    const selectAll = dialog.getByRole('checkbox', { name: /select all/i });
    await selectAll.uncheck();
    await expect(dialog.getByText('Please select at least one item to export')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Publish 0 Item(s)' })).toBeDisabled();
    await selectAll.check();
    await dialog.getByRole('button', { name: 'Publish 3 Item(s)' }).click();
    await expectToastShown(page, 'Export Started');
    await exportCompletes(page);

    const session = (await (await page.request.get(`/api/videos/${id}`, { headers: await authHeaders(page) })).json()) as { providerSessionId: string; providerMainVideoUploadStatus: string };
    expect(session.providerMainVideoUploadStatus).toBe('uploaded');
    const lib = await library(page);
    const main = lib.find((v) => v.sessions.includes(session.providerSessionId) && v.kind !== 'clip');
    expect(main?.files.video?.bytes).toBeGreaterThan(10_000);
    expect(main?.files.vtt?.bytes).toBeGreaterThan(10);
    expect(lib.some((v) => v.kind === 'clip' && v.title === 'Publish moment')).toBe(true);

    // as a person would check: the sandbox's library page lists the three
    await page.goto(`${sandboxUrl()}/library`);
    await expect(page.getByText('Main video').first()).toBeVisible();
    await expect(page.getByText('Subtitles').first()).toBeVisible();
    await expect(page.getByText('Clip: Publish moment').first()).toBeVisible();
  });

  test('clones, then publishes to the new video', async ({ page }) => {
    const id = await openDemoVideo(page);
    const { words } = await fetchTranscript(page, id);
    await editWord(page, findPhrase(words, 'welcome'), 'greetings');
    const before = (await (await page.request.get(`/api/videos/${id}`, { headers: await authHeaders(page) })).json()) as { providerSessionId: string };

    await page.getByRole('button', { name: 'Publish changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish changes' });
    await expect(dialog.getByText('Subtitles', { exact: true }).first()).toBeVisible();
    await dialog.getByRole('switch', { name: 'Publish changes to new video (clone)' }).check();
    await dialog.getByRole('button', { name: 'Publish 1 Item(s)' }).click();
    expect((await expectToastShown(page, 'Video cloned')).description).toBe('Exporting to new video...');
    await exportCompletes(page);

    const after = (await (await page.request.get(`/api/videos/${id}`, { headers: await authHeaders(page) })).json()) as { providerSessionId: string; providerIsClone: boolean };
    expect(after.providerIsClone).toBe(true);
    expect(after.providerSessionId).not.toBe(before.providerSessionId);
    const clone = (await library(page)).find((v) => v.sessions.includes(after.providerSessionId));
    expect(clone?.isClone).toBe(true);
    expect(clone?.files.vtt?.bytes).toBeGreaterThan(10);

    // everything is published: nothing to publish until the next edit, and a clone offers no clone toggle
    await expect(page.getByRole('button', { name: 'Publish changes' })).toBeDisabled();
    await editWord(page, findPhrase(words, 'welcome') + 1, 'again');
    await page.getByRole('button', { name: 'Publish changes' }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Publish changes to new video (clone)')).toHaveCount(0);
  });

  test('a reload while an export runs shows its progress again instead of losing it', async ({ page }) => {
    const id = await openDemoVideo(page);
    const { words } = await fetchTranscript(page, id);
    await editWord(page, findPhrase(words, 'welcome'), 'greetings');
    const { providerSessionId } = (await (await page.request.get(`/api/videos/${id}`, { headers: await authHeaders(page) })).json()) as { providerSessionId: string };
    // the provider holds the upload's creation for 6 s: the export is still running at the reload
    const fault = await page.request.post(`${sandboxUrl()}/_control/faults`, {
      data: { match: { method: 'POST', path: `^/uploads/${providerSessionId}/vtt` }, action: { kind: 'timeout', ms: 6000 }, times: 1 },
    });
    expect(fault.ok()).toBe(true);

    await page.getByRole('button', { name: 'Publish changes' }).click();
    await page.getByRole('dialog', { name: 'Publish changes' }).getByRole('button', { name: 'Publish 1 Item(s)' }).click();
    await expect(page.getByRole('dialog', { name: 'Exporting to the provider' })).toBeVisible();
    await page.reload();

    // the same export, followed again: locked while it runs, then its summary
    const progress = page.getByRole('dialog', { name: /Exporting to the provider|Export Complete/ });
    await expect(progress).toBeVisible({ timeout: 15_000 });
    await exportCompletes(page);
    const uploads = (await (await page.request.get(`${sandboxUrl()}/_control/requests`)).json()) as { requests: Array<{ method: string; path: string }> };
    expect(uploads.requests.filter((r) => r.method === 'POST' && r.path === `/uploads/${providerSessionId}/vtt`)).toHaveLength(1);
    await expect(page.getByRole('button', { name: 'Publish changes' })).toBeDisabled();
  });

  test('reverts to the original after a confirmation', async ({ page }) => {
    const id = await openDemoVideo(page);
    const { words } = await fetchTranscript(page, id);
    const index = findPhrase(words, 'welcome');
    const original = words[index]!.text;
    await editWord(page, index, 'greetings');
    await expect.poll(async () => (await fetchTranscript(page, id)).words[index]!.text).toBe('greetings');

    await page.getByRole('button', { name: 'Revert to Original' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to revert to the original?' });
    await expect(confirm.getByText('This will delete all clips and changes.')).toBeVisible();
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(toastTitled(page, 'Session Reset')).toBeVisible({ timeout: 30_000 });
    await expect(toastTitled(page, 'Session Reset')).toContainText('Transcript file updated');
    await expect.poll(async () => (await fetchTranscript(page, id)).words[index]!.text).toBe(original);
    await expect(wordAt(page, index)).toHaveText(original, { timeout: 15_000 });
    expect((await fetchVideo(page, id)).status).toBe('completed');

    // the revert is one step of the history: Undo brings the edited word back, on the server too
    await page.getByTestId('undo').click();
    await expect(wordAt(page, index)).toHaveText('greetings', { timeout: 15_000 });
    await expect.poll(async () => (await fetchTranscript(page, id)).words[index]!.text).toBe('greetings');
    await page.getByTestId('redo').click();
    await expect(wordAt(page, index)).toHaveText(original, { timeout: 15_000 });
  });

  test('publish, revert, publish: the provider library gets the original bytes back', async ({ page }) => {
    const id = await openDemoVideo(page);
    const { words } = await fetchTranscript(page, id);
    const first = findPhrase(words, 'linked to its moment');
    await cutWords(page, first, first + 3);
    const mainFile = async () => {
      const { providerSessionId } = await fetchVideo(page, id);
      return (await library(page)).find((v) => v.sessions.includes(providerSessionId!) && v.kind !== 'clip')?.files.video;
    };
    const publishAll = async () => {
      const publish = page.getByRole('button', { name: 'Publish changes' });
      await expect(publish).toBeEnabled({ timeout: 15_000 });
      await publish.click();
      const dialog = page.getByRole('dialog', { name: 'Publish changes' });
      await expect(dialog.getByText('Main Video', { exact: true })).toBeVisible();
      await dialog.getByRole('button', { name: /^Publish \d+ Item\(s\)$/ }).click();
      await exportCompletes(page);
    };
    const originalSha = createHash('sha256').update(readFileSync(demoVideoFile())).digest('hex');

    await publishAll();
    const edited = await mainFile();
    expect(edited?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(edited!.sha256).not.toBe(originalSha);
    // published and reloaded: the video is still not the original, so Revert stays
    await page.reload();
    await expect(page.getByTestId('transcript-word').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Revert to Original' })).toBeVisible();

    await page.getByRole('button', { name: 'Revert to Original' }).click();
    await page.getByRole('alertdialog', { name: 'Are you sure you want to revert to the original?' }).getByRole('button', { name: 'OK' }).click();
    const reset = toastTitled(page, 'Session Reset');
    await expect(reset).toBeVisible({ timeout: 30_000 });
    // the toast says what happened: WordCut is back, the provider still has the edit until a publish
    await expect(reset).toContainText('The provider still has what you published');
    await expect(page.getByTestId('transcript-word')).toHaveCount(words.length, { timeout: 15_000 });
    expect((await mainFile())!.sha256).toBe(edited!.sha256);

    await publishAll();
    await expect.poll(async () => (await mainFile())?.sha256, { timeout: 15_000 }).toBe(originalSha);
    await expect(page.getByRole('button', { name: 'Publish changes' })).toBeDisabled();
  });
});
