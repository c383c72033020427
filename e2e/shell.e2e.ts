import { expect, test } from '@playwright/test';
import type { Page, Route } from '@playwright/test';
import { DEAD_API_SHELL_PORT, E2E_WEB_PORTS } from './ports';

/** Where the e2e shell's /remotes.json points the editor remote (e2e/playwright.config.ts). */
const EDITOR_ORIGIN = `http://localhost:${E2E_WEB_PORTS.editor}`;

/** Client-side navigation, as a link inside the app would do it (no page reload). */
async function navigateInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Answers GET /api/videos/<id> with a completed video, so the editor shows its page without the backend. */
async function stubVideo(page: Page, id: string) {
  const video = {
    id, title: `Video ${id}`, originalName: 'clip.mp4', duration: 2, filename: 'clip.mp4', processedFilename: null,
    lastProcessedAt: null, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', status: 'completed',
    vttProgress: 100, vttMethod: 'VTT Upload', vttError: null, videoChanged: false, vttChanged: false, wordBywordChanged: false,
    languageCode: 'en', width: 320, height: 240, hasAudio: true, fileSize: 1, mediaVersion: 'original', providerSessionId: null,
    providerVideoId: null, providerIsClone: false, providerMainVideoUploadStatus: 'none', providerVttUploadStatus: 'none', transcriptId: null,
  };
  await page.route(`**/api/videos/${id}`, (route) => route.fulfill({ json: video }));
}

/** A video with no key moments found yet: the panel shows its empty state. */
async function stubNoMoments(page: Page, id: string) {
  await page.route(`**/api/videos/${id}/key-moments`, (route) => route.fulfill({ json: { moments: [], analysedAt: null, source: null } }));
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
    await expect(page.getByTestId('editor-entry')).toBeVisible();
    await expect(page.getByLabel('MP4 video file')).toHaveAttribute('accept', 'video/mp4,.mp4,video/quicktime,.mov,video/x-matroska,.mkv,video/webm,.webm');
    await expect(page.getByLabel('VTT subtitle file')).toHaveAttribute('accept', 'text/vtt,.vtt,application/x-subrip,.srt,application/json,.json');
    await expect(page.getByRole('button', { name: 'Upload and open' })).toBeEnabled();
    await expect(page.getByTestId('publish-actions')).toBeAttached();
  });

  test('opens the video of an editor route', async ({ page }) => {
    await stubVideo(page, 'vid_123');
    await page.goto('/editor/vid_123');
    await expect(page.getByRole('heading', { name: 'Video vid_123' })).toBeVisible();
    await stubVideo(page, 'vid_456');
    await page.goto('/video/vid_456');
    await expect(page.getByRole('heading', { name: 'Video vid_456' })).toBeVisible();
  });

  test('a video the page cannot open says so at once: no session, then a session that does not own it', async ({ page }) => {
    await page.goto('/editor/vid_unknown');
    const card = page.getByTestId('video-unavailable');
    await expect(card).toContainText('Session ended');
    await expect(card.getByRole('link', { name: 'Upload a video' })).toBeVisible();
    await page.evaluate(async () => {
      const res = await fetch('/api/auth/session', { method: 'POST' });
      localStorage.setItem('wordcut_gateway_session', await res.text());
    });
    await page.reload();
    await expect(card).toContainText('Video not found');
    await expect(page.getByTestId('connection-error')).toHaveCount(0);
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
    await expect(page.getByTestId('editor-entry')).toBeVisible();
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
    await expect(page.getByTestId('editor-entry')).toBeVisible();
  });
});

test.describe('KeyClips panel', () => {
  test('?panel=keyclips opens the panel and Escape closes it', async ({ page }) => {
    await stubNoMoments(page, 'vid_1');
    await page.goto('/editor/vid_1?panel=keyclips');
    const panel = page.getByRole('dialog', { name: 'KeyClips' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('heading', { name: 'Discover Engaging Moments' })).toBeVisible();

    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(page).toHaveURL(/\/editor\/vid_1$/);
  });

  test("the editor's 'Find Key Moments' opens it and the close button closes it", async ({ page }) => {
    await stubVideo(page, 'vid_2');
    await stubNoMoments(page, 'vid_2');
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

test.describe('API down', () => {
  test('an API that is down answers 502 through the shell proxy and the editor says so', async ({ page, request }) => {
    const shell = `http://localhost:${DEAD_API_SHELL_PORT}`;
    const health = await request.get(`${shell}/api/jobs/x/status`);
    expect(health.status()).toBe(502);
    expect(await health.json()).toMatchObject({ statusCode: 502, code: 'SERVICE_UNAVAILABLE' });

    await page.goto(`${shell}/`);
    const error = page.getByTestId('entry-error');
    await expect(error).toBeVisible();
    await expect(error).toContainText('is unavailable');
    await expect(error.getByRole('button', { name: 'Retry' })).toBeVisible();
  });
});
