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

test.describe('probe a media file (API mocked in the browser)', () => {
  const jobId = 'probe_0b6f8a52-5c1e-4d3a-9a56-6f0f3d1c2b7e';
  const now = new Date().toISOString();
  const baseStatus = {
    id: jobId,
    kind: 'probe',
    estimatedTimeRemaining: null,
    error: null,
    result: null,
    attempts: 1,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };

  async function choose(page: Page) {
    await page.getByLabel('Media file', { exact: true }).setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: Buffer.from('not really a video') });
    await page.getByRole('button', { name: 'Probe' }).click();
  }

  test('uploads the file, polls the job and shows the result', async ({ page }) => {
    let uploaded = '';
    await page.route('**/api/probe-jobs', async (route) => {
      const request = route.request();
      expect(request.method()).toBe('POST');
      uploaded = request.headers()['content-type'] ?? '';
      await route.fulfill({ status: 202, json: { jobId } });
    });
    let polls = 0;
    await page.route(`**/api/jobs/${jobId}/status`, async (route) => {
      polls += 1;
      if (polls === 1) {
        await route.fulfill({ json: { ...baseStatus, status: 'processing', progress: 40, message: 'Probing media' } });
      } else if (polls === 2) {
        await route.abort('connectionreset'); // a poll network error is ignored
      } else {
        await route.fulfill({
          json: {
            ...baseStatus,
            status: 'completed',
            progress: 100,
            message: 'Probe complete',
            completedAt: now,
            result: {
              formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
              durationSec: 12.5,
              sizeBytes: 5 * 1024 * 1024,
              bitRate: 3_355_443,
              streams: [
                { index: 0, codecType: 'video', codecName: 'h264', width: 1920, height: 1080, frameRate: 29.97, sampleRate: null, channels: null, durationSec: 12.5 },
                { index: 1, codecType: 'audio', codecName: 'aac', width: null, height: null, frameRate: null, sampleRate: 48000, channels: 2, durationSec: 12.5 },
              ],
            },
          },
        });
      }
    });

    await page.goto('/');
    await choose(page);
    expect(uploaded).toMatch(/^multipart\/form-data; boundary=/);
    await expect(page.getByTestId('probe-status')).toHaveText('Processing');
    await expect(page.getByTestId('probe-progress')).toHaveText('40%');
    await expect(page.getByTestId('probe-message')).toHaveText('Probing media');

    const result = page.getByTestId('probe-result');
    await expect(result).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('probe-status')).toHaveText('Completed');
    await expect(result).toContainText('mov,mp4,m4a,3gp,3g2,mj2');
    await expect(result).toContainText('12.5 s');
    await expect(result).toContainText('5.00 MB');
    await expect(result).toContainText('h264 · 1920×1080 · 29.97 fps');
    await expect(result).toContainText('aac · 48000 Hz · 2 ch');
    const pollsAtEnd = polls;
    await page.waitForTimeout(2_500);
    expect(polls).toBe(pollsAtEnd); // polling stopped
  });

  test("a job in 'error' shows the error and a destructive toast", async ({ page }) => {
    await page.route('**/api/probe-jobs', (route) => route.fulfill({ status: 202, json: { jobId } }));
    await page.route(`**/api/jobs/${jobId}/status`, (route) =>
      route.fulfill({ json: { ...baseStatus, status: 'error', progress: 0, message: 'Probe failed', error: 'ffprobe could not read the file' } }),
    );
    await page.goto('/');
    await choose(page);
    await expect(page.getByTestId('probe-error')).toHaveText('ffprobe could not read the file');
    const toast = page.locator('.wc-toast');
    await expect(toast).toHaveCount(1);
    await expect(toast).toHaveAttribute('data-variant', 'destructive');
    await expect(toast).toContainText('Probe failed');
  });

  test('an API that is down answers 502 through the shell proxy and the toast says so', async ({ page, request }) => {
    const health = await request.get('/api/__e2e_no_such_route__');
    test.skip(health.status() !== 502, 'an API is running on :3000; this test covers the proxy without it');
    expect(await health.json()).toMatchObject({ statusCode: 502, code: 'SERVICE_UNAVAILABLE' });

    await page.goto('/');
    await choose(page);
    const toast = page.locator('.wc-toast');
    await expect(toast).toContainText('Probe failed');
    await expect(toast).toContainText('is unavailable');
  });
});
