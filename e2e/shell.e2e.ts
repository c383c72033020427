import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Page, Route } from '@playwright/test';

/** Where the default /remotes.json points the remotes (see apps/shell/public/remotes.json). */
const EDITOR_ORIGIN = 'http://localhost:4201';

/** Client-side navigation, as a link inside the app would do it (no page reload). */
async function navigateInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Repoints the editor remote (as a deployment would, through /remotes.json) at a stand-in
 * container that honours the Module Federation container contract (init/get) but whose
 * module fails: at load (`factory`) or while rendering (`render`).
 */
async function useFailingEditorRemote(page: Page, failAt: 'factory' | 'render') {
  const entry = `${EDITOR_ORIGIN}/failing/remoteEntry.js`;
  await page.route('**/remotes.json', async (route: Route) => {
    const response = await route.fetch();
    const remotes = (await response.json()) as Record<string, string>;
    await route.fulfill({ response, json: { ...remotes, editor: entry } });
  });
  const body =
    failAt === 'factory'
      ? `window.wordcut_editor = { init: function () {}, get: function () { return Promise.resolve(function () { throw new Error('Simulated failure while loading the editor module'); }); } };`
      : `window.wordcut_editor = { init: function () {}, get: function () { return Promise.resolve(function () { return { __esModule: true, default: function BrokenEditor() { throw new Error('Simulated failure while rendering the editor'); } }; }); } };`;
  await page.route(entry, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body }));
}

test.describe('shell', () => {
  test('loads at / with the editor and publish remotes', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'WordCut, home' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Probe a media file' })).toBeVisible();
    await expect(page.getByLabel('Media file', { exact: true })).toHaveAttribute('accept', 'video/*,audio/*');
    await expect(page.getByRole('button', { name: 'Probe' })).toBeDisabled();
    await expect(page.getByTestId('publish-actions')).toBeAttached();
  });

  test('shows the video id of an editor route', async ({ page }) => {
    await page.goto('/editor/vid_123');
    await expect(page.getByRole('heading', { name: 'Video vid_123' })).toBeVisible();
    await page.goto('/video/vid_456');
    await expect(page.getByRole('heading', { name: 'Video vid_456' })).toBeVisible();
  });

  test('/analytics loads the analytics remote', async ({ page }) => {
    await page.goto('/analytics');
    await expect(page.getByRole('heading', { name: 'Analytics Dashboard' })).toBeVisible();
    const login = page.getByRole('button', { name: 'Login' });
    await expect(login).toBeDisabled();
    await page.getByLabel('Password').fill('secret');
    await expect(login).toBeEnabled();
  });

  test('an unknown path shows the not-found screen', async ({ page }) => {
    await page.goto('/nowhere');
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  });
});

test.describe('remote failures', () => {
  test('a remote that is down shows a fallback and the shell stays usable', async ({ page }) => {
    await page.route(`${EDITOR_ORIGIN}/**`, (route) => route.abort('connectionrefused'));
    await page.goto('/');

    const fallback = page.getByTestId('remote-fallback-editor');
    await expect(fallback).toBeVisible();
    await expect(fallback).toHaveAttribute('role', 'alert');
    await expect(fallback.getByRole('heading', { name: 'Editor is unavailable' })).toBeVisible();
    await expect(fallback).toContainText('This part of WordCut could not be loaded. The rest of the app still works.');
    // The rest of the page still works: header, the publish remote.
    await expect(page.getByRole('link', { name: 'WordCut, home' })).toBeVisible();
    await expect(page.getByTestId('publish-actions')).toBeAttached();

    await navigateInApp(page, '/analytics');
    await expect(page.getByRole('heading', { name: 'Analytics Dashboard' })).toBeVisible();
  });

  test('Retry loads the remote once it is back', async ({ page }) => {
    await page.route(`${EDITOR_ORIGIN}/**`, (route) => route.abort('connectionrefused'));
    await page.goto('/');
    const fallback = page.getByTestId('remote-fallback-editor');
    await expect(fallback).toBeVisible();

    await page.unroute(`${EDITOR_ORIGIN}/**`);
    await fallback.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { name: 'Probe a media file' })).toBeVisible();
    await expect(fallback).toHaveCount(0);
  });

  test('a remote whose module throws at load shows the fallback', async ({ page }) => {
    await useFailingEditorRemote(page, 'factory');
    await page.goto('/');
    await expect(page.getByTestId('remote-fallback-editor')).toBeVisible();
    await expect(page.getByTestId('publish-actions')).toBeAttached();
  });

  test('a remote that throws while rendering shows the error screen', async ({ page }) => {
    await useFailingEditorRemote(page, 'render');
    await page.goto('/');

    const screen = page.getByTestId('error-screen');
    await expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    await expect(screen).toContainText('An error occurred while processing your video. This might be due to a temporary issue.');

    // Try Again re-renders the content; the remote still throws, so the screen comes back.
    await screen.getByRole('button', { name: 'Try Again' }).click();
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();

    // With the real remote back, Reload Page recovers.
    await page.unrouteAll();
    await page.getByRole('button', { name: 'Reload Page' }).click();
    await expect(page.getByRole('heading', { name: 'Probe a media file' })).toBeVisible();
  });
});

test.describe('KeyClips panel', () => {
  test('?panel=keyclips opens the panel and Escape closes it', async ({ page }) => {
    await page.goto('/editor/vid_1?panel=keyclips');
    const panel = page.getByRole('dialog', { name: 'KeyClips' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('heading', { name: 'Discover Engaging Moments' })).toBeVisible();

    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(page).toHaveURL(/\/editor\/vid_1$/);
  });

  test("the editor's 'Find Key Moments' opens it and the close button closes it", async ({ page }) => {
    await page.goto('/editor/vid_2');
    await page.getByRole('button', { name: 'Find Key Moments' }).click();
    await expect(page).toHaveURL(/\?panel=keyclips$/);
    const panel = page.getByRole('dialog', { name: 'KeyClips' });
    await expect(panel.getByRole('heading', { name: 'Discover Engaging Moments' })).toBeVisible();

    await panel.getByRole('button', { name: 'Close KeyClips' }).click();
    await expect(panel).toHaveCount(0);
    await expect(page).toHaveURL(/\/editor\/vid_2$/);
    await expect(page.getByRole('button', { name: 'Find Key Moments' })).toBeFocused();
  });
});

test.describe('probe a media file through the real backend', () => {
  const mediaDir = () => process.env['E2E_MEDIA_DIR'] as string;

  async function choose(page: Page, file: string) {
    await page.getByLabel('Media file', { exact: true }).setInputFiles(path.join(mediaDir(), file));
    await page.getByRole('button', { name: 'Probe' }).click();
  }

  test('uploads a video, polls the job through a lost poll, and shows what ffprobe found', async ({ page }) => {
    let polls = 0;
    await page.route('**/api/jobs/*/status', async (route) => {
      polls += 1;
      // one poll lost on the network: it must be ignored, the next one goes on
      if (polls === 1) await route.abort('connectionreset');
      else await route.continue();
    });
    await page.goto('/');
    await choose(page, 'tiny.mp4');
    const result = page.getByTestId('probe-result');
    await expect(result).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('probe-status')).toHaveText('Completed');
    await expect(result).toContainText('mov,mp4,m4a,3gp,3g2,mj2');
    await expect(result).toContainText('h264 · 320×240 · 25 fps');
    await expect(result).toContainText('aac');
    expect(polls).toBeGreaterThanOrEqual(2);
    const pollsAtEnd = polls;
    await page.waitForTimeout(2_500);
    expect(polls).toBe(pollsAtEnd); // polling stopped once the job finished
  });

  test("a file that is not media ends in 'error' with the reason and a destructive toast", async ({ page }) => {
    await page.goto('/');
    await choose(page, 'notes.txt');
    await expect(page.getByTestId('probe-error')).toContainText('not a playable media file', { timeout: 20_000 });
    const toast = page.locator('.wc-toast');
    await expect(toast).toHaveCount(1);
    await expect(toast).toHaveAttribute('data-variant', 'destructive');
    await expect(toast).toContainText('Probe failed');
  });

  test('an API that is down answers 502 through the shell proxy and the toast says so', async ({ page, request }) => {
    const shell = 'http://localhost:4290';
    const health = await request.get(`${shell}/api/jobs/x/status`);
    expect(health.status()).toBe(502);
    expect(await health.json()).toMatchObject({ statusCode: 502, code: 'SERVICE_UNAVAILABLE' });

    await page.goto(`${shell}/`);
    await choose(page, 'tiny.mp4');
    const toast = page.locator('.wc-toast');
    await expect(toast).toContainText('Probe failed');
    await expect(toast).toContainText('is unavailable');
  });
});
