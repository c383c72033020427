/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { editorBridge, sessionStore } from '@wordcut/ui';
import { videoIdFromPath } from './Module';
import {
  CLIP_A,
  CLIP_B,
  CLIP_C,
  SESSION_ID,
  VIDEO_ID,
  clipsPath,
  jobStatus,
  makeClip,
  makeToken,
  makeVideo,
  renderPublish,
  reply,
  routeFetch,
  sessionToken,
  signedInWithToasts,
  videoPath,
} from './testing/fixtures';
import type { Handler } from './testing/fixtures';
import type { PublishClipRecord } from './api';
import type { Video } from '@wordcut/contracts';

/**
 * The header actions and the publish dialog against a fake fetch router: which actions show, what
 * the dialog offers, the export request, the clone flow, the token refresh on 401 and the toasts.
 * Over 400 lines: one scenario per publishing rule, all rendering the module the same way; split by
 * topic they would each repeat the routes and session setup above.
 */

const TOKEN = sessionToken();

function api(opts: { video?: () => Video; clips?: () => PublishClipRecord[]; extra?: Record<string, Handler> } = {}) {
  return routeFetch({
    [`GET ${videoPath}`]: () => reply(200, (opts.video ?? (() => makeVideo()))()),
    [`GET ${clipsPath}`]: () => reply(200, (opts.clips ?? (() => []))()),
    ...opts.extra,
  });
}

const toasts = signedInWithToasts(TOKEN);
afterEach(() => {
  localStorage.clear(); // the followed export of one test is not another's
  editorBridge.reset();
  jest.useRealTimers();
});

const publishButton = () => screen.findByRole('button', { name: 'Publish changes' });

async function openDialog() {
  fireEvent.click(await publishButton());
  return screen.findByRole('dialog', { name: 'Publish changes' });
}

describe('the video id', () => {
  it('is read from every editor route', () => {
    expect(videoIdFromPath(`/editor/${VIDEO_ID}`)).toBe(VIDEO_ID);
    expect(videoIdFromPath(`/videos/${VIDEO_ID}`)).toBe(VIDEO_ID);
    expect(videoIdFromPath(`/video/${VIDEO_ID}`)).toBe(VIDEO_ID);
    expect(videoIdFromPath('/editor')).toBeNull();
    expect(videoIdFromPath('/')).toBeNull();
    expect(videoIdFromPath('/analytics')).toBeNull();
  });
});

describe('header actions', () => {
  it('show nothing for a video without a provider session', async () => {
    const calls = api({ video: () => makeVideo({ providerSessionId: null }) });
    renderPublish();
    await waitFor(() => expect(calls.count('GET', videoPath)).toBeGreaterThan(0));
    await act(async () => undefined);
    expect(screen.getByTestId('publish-actions')).toBeEmptyDOMElement();
  });

  it("show 'Publish changes' and, with pending exports, 'Revert to Original'", async () => {
    api();
    renderPublish();
    expect(await publishButton()).not.toHaveAttribute('aria-disabled');
    expect(screen.getByRole('button', { name: 'Revert to Original' })).toBeInTheDocument();
  });

  it('hide Revert and disable Publish with nothing to export, until the editor reports history entries', async () => {
    api({ video: () => makeVideo({ videoChanged: false, vttChanged: false }) });
    renderPublish();
    expect(await publishButton()).toHaveAttribute('aria-disabled', 'true');
    expect(screen.queryByRole('button', { name: 'Revert to Original' })).not.toBeInTheDocument();
    act(() => editorBridge.set({ videoId: VIDEO_ID, historyEntries: 2 }));
    expect(screen.getByRole('button', { name: 'Revert to Original' })).toBeInTheDocument();
    // a disabled Publish does not open the dialog
    fireEvent.click(await publishButton());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("are disabled with the tooltip 'Waiting for clips to finish processing...' while a clip processes", async () => {
    api({ clips: () => [makeClip({ id: CLIP_A, name: 'Intro', status: 'processing' })] });
    renderPublish();
    const button = await publishButton();
    await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    act(() => button.focus());
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Waiting for clips to finish processing...');
  });
});

describe('the publish dialog', () => {
  const clips = () => [
    makeClip({ id: CLIP_A, name: 'Intro', aspectRatio: '9:16', startTime: 1, endTime: 13 }),
    makeClip({ id: CLIP_B, name: 'Outro', aspectRatio: '1:1', startTime: 20, endTime: 95 }),
    makeClip({ id: CLIP_C, name: 'Busy', status: 'failed' }),
    makeClip({ id: '44444444-4444-4444-8444-444444444444', name: 'Done', providerUploadStatus: 'uploaded', providerVideoId: 'pv-9' }),
  ];

  it('offers the changed main video, the subtitles and the finished clips, all preselected', async () => {
    api({ video: () => makeVideo({ mutedSegments: [{ start: 2, end: 3, volume: 0 }] }), clips });
    act(() => editorBridge.set({ videoId: VIDEO_ID, pendingMutes: [{ startTime: 5, endTime: 6, level: 'silence' }] }));
    renderPublish();
    const dialog = await openDialog();
    const main = within(dialog).getByRole('group', { name: 'Main Video' });
    expect(within(main).getByRole('checkbox', { name: 'Demo talk' })).toBeChecked();
    expect(within(main).getByRole('checkbox', { name: 'Demo talk' })).toHaveAccessibleDescription('2 mute segments applied');
    const subtitles = within(dialog).getByRole('group', { name: 'Subtitles' });
    expect(within(subtitles).getByRole('checkbox', { name: 'Subtitles' })).toHaveAccessibleDescription('Captions (VTT)');
    const clipGroup = within(dialog).getByRole('group', { name: 'Clips 2' });
    const clipBoxes = within(clipGroup).getAllByRole('checkbox');
    expect(clipBoxes.map((b) => b.getAttribute('aria-labelledby') && b.closest('label')?.textContent)).toEqual(['Intro9:16 • 12s', 'Outro1:1 • 1m 15s']);
    expect(clipBoxes.every((b) => (b as HTMLInputElement).checked)).toBe(true);
    expect(within(dialog).getByRole('checkbox', { name: 'Select all' })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Publish 4 Item(s)' })).toBeEnabled();
    // the quota from the token: plan limits and usage snapshot
    expect(within(dialog).getByText('Today: 1 of 10 exports')).toBeInTheDocument();
    expect(within(dialog).getByText('This month: 5 of 100 exports')).toBeInTheDocument();
    expect(within(dialog).getByRole('switch', { name: 'Publish changes to new video (clone)' })).not.toBeChecked();
  });

  it("clears and selects everything with select-all; nothing selected shows the alert and disables the confirm button", async () => {
    api({ clips });
    renderPublish();
    (await publishButton()).focus(); // opened from the keyboard
    const dialog = await openDialog();
    const all = within(dialog).getByRole('checkbox', { name: 'Select all' });
    fireEvent.click(all);
    expect(within(dialog).getAllByRole('checkbox').filter((b) => (b as HTMLInputElement).checked)).toHaveLength(0);
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please select at least one item to export');
    expect(within(dialog).getByRole('button', { name: 'Publish 0 Item(s)' })).toBeDisabled();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Outro' }));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Publish 1 Item(s)' })).toBeEnabled();
    expect((all as HTMLInputElement).indeterminate).toBe(true);
    fireEvent.click(all);
    expect(within(dialog).getByRole('button', { name: 'Publish 4 Item(s)' })).toBeEnabled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // focus is back on the button that opened it (it is not a Radix trigger)
    expect(screen.getByRole('button', { name: 'Publish changes' })).toHaveFocus();
  });

  it('warns from 80 % of a limit and disables publishing when the quota is used up', async () => {
    api();
    sessionStore.setToken(sessionToken({ usageSnapshot: { exportsToday: 8, exportsThisMonth: 5 } }));
    const view = renderPublish();
    let dialog = await openDialog();
    expect(within(dialog).getByRole('status')).toHaveTextContent("You're approaching your export limit. Consider upgrading for more capacity.");
    expect(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' })).toBeEnabled();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    view.unmount();

    sessionStore.setToken(sessionToken({ usageSnapshot: { exportsToday: 2, exportsThisMonth: 100 } }));
    renderPublish();
    dialog = await openDialog();
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Export quota exceeded. Please upgrade your plan or wait until the quota resets.');
    expect(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' })).toBeDisabled();
  });

  it("asks the server for the usage as it opens: its count replaces the token's snapshot", async () => {
    const calls = api({
      extra: {
        'GET /api/wordcut/quota': () =>
          reply(200, { exportsToday: 10, maxPerDay: 10, exportsThisMonth: 12, maxPerMonth: 100, nextDailyReset: '2025-01-03T00:00:00.000Z', nextMonthlyReset: '2025-02-01T00:00:00.000Z' }),
      },
    });
    renderPublish();
    const dialog = await openDialog();
    expect(calls.count('GET', '/api/wordcut/quota')).toBe(1);
    expect(calls.authOf(calls.calls.find((c) => c.url === '/api/wordcut/quota')!)).toBe(`Bearer ${TOKEN}`);
    expect(await within(dialog).findByText('Today: 10 of 10 exports')).toBeInTheDocument();
    expect(within(dialog).getByText('This month: 12 of 100 exports')).toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Export quota exceeded. Please upgrade your plan or wait until the quota resets.');
    expect(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' })).toBeDisabled();
  });

  it('hides the clone toggle for a video that already is a clone', async () => {
    api({ video: () => makeVideo({ providerIsClone: true }) });
    renderPublish();
    const dialog = await openDialog();
    expect(within(dialog).queryByRole('switch')).not.toBeInTheDocument();
  });
});

describe('publishing', () => {
  const exportCreated = (jobId = 'export_1') => ({
    jobId,
    status: 'queued',
    itemCount: 3,
    quota: { exportsToday: 2, maxPerDay: 10, exportsThisMonth: 6, maxPerMonth: 100, nextDailyReset: '2025-01-03T00:00:00.000Z', nextMonthlyReset: '2025-02-01T00:00:00.000Z' },
  });

  it('sends the export request with the bearer token, toasts Export Started and opens the progress dialog', async () => {
    let finished = false;
    const calls = api({
      video: () => makeVideo({ mutedSegments: [{ start: 2, end: 3, volume: 0 }], ...(finished ? { providerMainVideoUploadStatus: 'uploaded' as const } : {}) }),
      clips: () => [makeClip({ id: CLIP_A, name: 'Intro', aspectRatio: '9:16' }), makeClip({ id: CLIP_B, name: 'Outro', aspectRatio: null })],
      extra: {
        'POST /api/jobs/export': () => reply(202, exportCreated()),
        'GET /api/jobs/export_1/status': () => {
          finished = true;
          return reply(
            200,
            jobStatus({
              status: 'completed',
              progress: 100,
              items: [
                { type: 'main_video', id: 'main_video', name: 'Demo talk', status: 'uploaded', bytes: 10, providerVideoId: 'pv-1', providerConfirmed: true, error: null },
                { type: 'clip', id: CLIP_B, name: 'Outro', status: 'uploaded', bytes: 10, providerVideoId: 'pv-2', providerConfirmed: true, error: null },
              ],
            }),
          );
        },
      },
    });
    act(() => editorBridge.set({ videoId: VIDEO_ID, pendingMutes: [{ startTime: 2.5, endTime: 4, level: 'whisper' }, { startTime: 8, endTime: 9, level: 'silence' }] }));
    renderPublish();
    const dialog = await openDialog();
    const videoGets = calls.count('GET', videoPath);
    const clipGets = calls.count('GET', clipsPath);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Intro' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 3 Item(s)' }));

    await waitFor(() => expect(calls.count('POST', '/api/jobs/export')).toBe(1));
    const call = calls.calls.find((c) => c.url === '/api/jobs/export')!;
    expect(calls.authOf(call)).toBe(`Bearer ${TOKEN}`);
    expect(call.init?.credentials).toBe('include');
    expect(new Headers(call.init?.headers).get('content-type')).toBe('application/json');
    const body = calls.bodies('POST', '/api/jobs/export')[0]!;
    expect(body).toEqual({
      videoId: VIDEO_ID,
      sessionId: SESSION_ID,
      saveMainVideo: true,
      saveVtt: true,
      mainVideoEdits: {
        // the processed silence (2-3) and the pending whisper over it stay apart: each is published at its level
        muteSegments: [
          { start: 2, end: 3, level: 'silence' },
          { start: 2.5, end: 4, level: 'whisper' },
          { start: 8, end: 9, level: 'silence' },
        ],
        captionsEnabled: false,
        effectsApplied: [],
      },
      clips: [{ clipId: CLIP_B, clipIndex: 1, aspectRatio: '16:9', duration: 12 }],
      idempotencyKey: expect.stringMatching(new RegExp(`^${VIDEO_ID}-\\d+-[0-9a-f]{16}$`)),
    });

    // the job completed at the first poll: toast, summary, the video and clips fetched again
    const progress = await screen.findByRole('dialog', { name: 'Export Complete' });
    expect(toasts.all.map((t) => t.title)).toEqual(['Export Started', 'Export Complete']);
    expect(toasts.all[0]!.description).toBe('Uploading 3 item(s) to the provider');
    expect(within(progress).getByText('2 item(s) uploaded to the provider.')).toBeInTheDocument();
    const summary = within(progress).getByRole('list', { name: 'Uploaded items' });
    expect(within(summary).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Main Video: Demo talkUploaded', 'Clip: OutroUploaded']);
    await waitFor(() => expect(calls.count('GET', videoPath)).toBe(videoGets + 1));
    await waitFor(() => expect(calls.count('GET', clipsPath)).toBe(clipGets + 1));
    // the usage the server answered replaces the token's snapshot
    expect(sessionStore.get().usage?.exportsThisMonth).toBe(6);
    fireEvent.click(within(progress).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // focus goes back to the header's Publish button
    await waitFor(() => expect(screen.getByRole('button', { name: 'Publish changes' })).toHaveFocus());
  });

  it('refreshes the token once after a 401 and sends the same request again with the new token', async () => {
    const fresh = sessionToken({ iat: 2 });
    const calls = api({
      extra: {
        'POST /api/jobs/export': (_url, init) =>
          new Headers(init?.headers).get('authorization') === `Bearer ${fresh}`
            ? reply(202, exportCreated())
            : reply(401, { statusCode: 401, error: 'unauthorized', message: 'token expired' }),
        'POST /api/wordcut/refresh-token': () =>
          reply(200, { newToken: fresh, plan: { tier: 'pro', quotas: { exportsPerDay: 10, exportsPerMonth: 100 } }, usage: exportCreated().quota }),
        'GET /api/jobs/export_1/status': () => reply(200, jobStatus({ status: 'processing', progress: 10 })),
      },
    });
    renderPublish();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    await screen.findByRole('dialog', { name: 'Exporting to the provider' });
    expect(calls.count('POST', '/api/wordcut/refresh-token')).toBe(1);
    const [first, second] = calls.bodies('POST', '/api/jobs/export');
    expect(second).toEqual(first);
    expect(calls.calls.filter((c) => c.url === '/api/jobs/export').map((c) => calls.authOf(c))).toEqual([`Bearer ${TOKEN}`, `Bearer ${fresh}`]);
    expect(calls.authOf(calls.calls.find((c) => c.url === '/api/wordcut/refresh-token')!)).toBe(`Bearer ${TOKEN}`);
  });

  it("toasts 'Export Failed' when the refresh fails, and with the server's message when the export is refused", async () => {
    let answer = () => reply(403, { statusCode: 403, error: 'forbidden', message: 'nope' });
    const calls = api({
      extra: {
        'POST /api/jobs/export': () => answer(),
        'POST /api/wordcut/refresh-token': () => reply(401, 'expired'),
      },
    });
    renderPublish();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    await waitFor(() => expect(toasts.all).toContainEqual({ title: 'Export Failed', description: 'Failed to refresh authentication. Please reload the page.', variant: 'destructive' }));
    expect(calls.count('POST', '/api/jobs/export')).toBe(1);
    // the dialog stays open to try again
    expect(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' })).toBeEnabled();

    answer = () => reply(409, { statusCode: 409, error: 'invalid_request', message: 'Clip "Intro" is not ready to publish (processing).' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    await waitFor(() => expect(toasts.all.at(-1)).toEqual({ title: 'Export Failed', description: 'Clip "Intro" is not ready to publish (processing).', variant: 'destructive' }));
  });

  it("shows 'Publishing...' while the export is being created", async () => {
    let release: (r: Response) => void = () => undefined;
    api({ extra: { 'POST /api/jobs/export': () => new Promise<Response>((resolve) => (release = resolve)) } });
    renderPublish();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    const busy = await within(dialog).findByRole('button', { name: 'Publishing...' });
    expect(busy).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await act(async () => release(reply(500, { statusCode: 500, error: 'export_failed', message: 'Failed to create export job' })));
    await waitFor(() => expect(toasts.all.at(-1)).toMatchObject({ title: 'Export Failed', description: 'Failed to create export job' }));
  });

  it('while the video has an export running (another tab, or before a reload) the dialog follows that one', async () => {
    const calls = api({
      extra: {
        'POST /api/jobs/export': () =>
          reply(409, {
            statusCode: 409,
            code: 'export_in_progress',
            error: 'export_in_progress',
            message: 'This video is already being published. Its export is shown; publish again when it has finished.',
            jobId: 'export_running',
          }),
        'GET /api/jobs/export_running/status': () => reply(200, jobStatus({ jobId: 'export_running', status: 'processing', progress: 30, currentStep: 'Uploading main video...' })),
      },
    });
    renderPublish();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    const progress = await screen.findByRole('dialog', { name: 'Exporting to the provider' });
    expect(await within(progress).findByText('30%')).toBeInTheDocument();
    expect(within(progress).getByText('Uploading main video...')).toBeInTheDocument();
    expect(toasts.all.at(-1)).toEqual({ title: 'Export in progress', description: 'This video is already being published. Its export is shown; publish again when it has finished.', variant: 'default' });
    expect(toasts.all.map((t) => t.title)).not.toContain('Export Failed');
    expect(calls.count('GET', '/api/jobs/export_running/status')).toBeGreaterThanOrEqual(1);
    expect(screen.queryByRole('dialog', { name: 'Publish changes' })).not.toBeInTheDocument();
  });

  it('a reload while an export runs shows its progress again; once it has finished it is forgotten', async () => {
    let status = jobStatus({ jobId: 'export_1', status: 'processing', progress: 20, currentStep: 'Uploading main video...' });
    const calls = api({
      extra: {
        'POST /api/jobs/export': () => reply(202, exportCreated()),
        'GET /api/jobs/export_1/status': () => reply(200, status),
      },
    });
    const first = renderPublish();
    fireEvent.click(within(await openDialog()).getByRole('button', { name: 'Publish 2 Item(s)' }));
    expect(await screen.findByText('20%')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('wordcut_export_jobs')!)).toEqual({ [VIDEO_ID]: { jobId: 'export_1', startedAt: expect.any(Number) } });
    first.unmount(); // the reload

    status = jobStatus({ jobId: 'export_1', status: 'processing', progress: 60, currentStep: 'Uploading subtitles...' });
    const second = renderPublish();
    const progress = await screen.findByRole('dialog', { name: 'Exporting to the provider' });
    expect(await within(progress).findByText('60%')).toBeInTheDocument();
    expect(within(progress).getByText('Uploading subtitles...')).toBeInTheDocument();
    expect(calls.count('POST', '/api/jobs/export')).toBe(1); // followed, not published again

    status = jobStatus({ jobId: 'export_1', status: 'completed', progress: 100 });
    expect(await screen.findByRole('dialog', { name: 'Export Complete' }, { timeout: 4000 })).toBeInTheDocument();
    expect(localStorage.getItem('wordcut_export_jobs')).toBeNull();
    second.unmount();
  });

  it('after a reload a remembered export that failed meanwhile shows its error, and one that is gone is forgotten quietly', async () => {
    const remember = (jobId: string) => localStorage.setItem('wordcut_export_jobs', JSON.stringify({ [VIDEO_ID]: { jobId, startedAt: Date.now() } }));
    api({
      extra: {
        'GET /api/jobs/export_failed/status': () => reply(200, jobStatus({ jobId: 'export_failed', status: 'failed', error: { error: 'provider_unavailable', message: 'The provider is unavailable right now. Please try again in a moment.' } })),
        'GET /api/jobs/export_gone/status': () => reply(404, { statusCode: 404, error: 'not_found', message: 'Export job not found.' }),
      },
    });
    remember('export_failed');
    const view = renderPublish();
    const failed = await screen.findByRole('dialog', { name: 'Export Failed' });
    expect(within(failed).getByRole('alert')).toHaveTextContent('The provider is unavailable right now. Please try again in a moment.');
    expect(within(failed).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(localStorage.getItem('wordcut_export_jobs')).toBeNull();
    view.unmount();

    remember('export_gone');
    renderPublish();
    await waitFor(() => expect(localStorage.getItem('wordcut_export_jobs')).toBeNull());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await publishButton()).toBeInTheDocument();
  });

  it('a quota refusal toasts and shows the limit with the upgrade path in the progress dialog', async () => {
    api({
      extra: {
        'POST /api/jobs/export': () =>
          reply(429, {
            statusCode: 429,
            code: 'QUOTA_EXCEEDED',
            error: 'quota_exceeded',
            message: 'Export quota exceeded. Please upgrade your plan or wait until the quota resets.',
            details: 'Daily limit of 10 exports reached.',
            retryAfter: 600,
            upgradeUrl: 'https://provider.example/upgrade',
          }),
      },
    });
    renderPublish();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    const failed = await screen.findByRole('dialog', { name: 'Export Failed' });
    expect(toasts.all.at(-1)).toEqual({ title: 'Export Failed', description: 'Export quota exceeded. Please upgrade your plan or wait until the quota resets.', variant: 'destructive' });
    expect(within(failed).getByRole('alert')).toHaveTextContent("You've reached your export limit.");
    expect(within(failed).getByRole('link', { name: 'Upgrade your plan' })).toHaveAttribute('href', 'https://provider.example/upgrade');
    expect(within(failed).getByRole('button', { name: 'Upgrade Plan' })).toBeInTheDocument();
    expect(within(failed).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Publish changes' })).not.toBeInTheDocument();
  });

  describe('the idempotency key of a re-click', () => {
    const unavailable = () =>
      reply(503, {
        statusCode: 503,
        error: 'export_failed',
        message: 'Failed to create export job',
        details: 'The export service did not answer. Please try again in a moment.',
      });
    const keysSent = (calls: ReturnType<typeof api>) => calls.bodies('POST', '/api/jobs/export').map((b) => b!['idempotencyKey']);

    /** Clicks the dialog's confirm button and waits for the export call number `n`. */
    async function publishAndWait(calls: ReturnType<typeof api>, dialog: HTMLElement, label: string, n: number) {
      fireEvent.click(within(dialog).getByRole('button', { name: label }));
      await waitFor(() => expect(calls.count('POST', '/api/jobs/export')).toBe(n));
    }

    it('is the same after a 503 (the server replays the job it may have started), and new for the next publish after a success', async () => {
      const answers = [unavailable, () => reply(202, exportCreated())];
      const calls = api({
        extra: {
          'POST /api/jobs/export': () => (answers.shift() ?? (() => reply(202, exportCreated('export_2'))))(),
          'GET /api/jobs/export_1/status': () => reply(200, jobStatus({ status: 'completed', progress: 100 })),
        },
      });
      renderPublish();
      let dialog = await openDialog();
      await publishAndWait(calls, dialog, 'Publish 2 Item(s)', 1);
      await waitFor(() => expect(toasts.all.at(-1)).toMatchObject({ title: 'Export Failed', description: 'Failed to create export job' }));
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' })).toBeEnabled());
      await publishAndWait(calls, dialog, 'Publish 2 Item(s)', 2);
      const progress = await screen.findByRole('dialog', { name: 'Export Complete' });
      const [first, retried] = keysSent(calls);
      expect(first).toMatch(new RegExp(`^${VIDEO_ID}-\\d+-[0-9a-f]{16}$`));
      expect(retried).toBe(first);
      expect(calls.bodies('POST', '/api/jobs/export')[1]).toEqual(calls.bodies('POST', '/api/jobs/export')[0]);

      fireEvent.click(within(progress).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      dialog = await openDialog();
      await publishAndWait(calls, dialog, 'Publish 2 Item(s)', 3);
      const next = keysSent(calls)[2];
      expect(next).toMatch(new RegExp(`^${VIDEO_ID}-\\d+-[0-9a-f]{16}$`));
      expect(next).not.toBe(first);
    });

    it('is the same after a network failure, and new once the selection changed', async () => {
      let failure: () => Response = () => {
        throw new TypeError('Failed to fetch');
      };
      const calls = api({ extra: { 'POST /api/jobs/export': () => failure() } });
      renderPublish();
      const dialog = await openDialog();
      await publishAndWait(calls, dialog, 'Publish 2 Item(s)', 1);
      await waitFor(() => expect(toasts.all.at(-1)).toMatchObject({ title: 'Export Failed', description: 'Network error. Please check your connection.' }));
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' })).toBeEnabled());
      failure = unavailable;
      await publishAndWait(calls, dialog, 'Publish 2 Item(s)', 2);
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' })).toBeEnabled());

      fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Subtitles' }));
      await publishAndWait(calls, dialog, 'Publish 1 Item(s)', 3);
      const [first, second, changed] = keysSent(calls);
      expect(second).toBe(first);
      expect(changed).not.toBe(first);
      expect(calls.bodies('POST', '/api/jobs/export')[2]).toMatchObject({ saveMainVideo: true, saveVtt: false });
    });

    it('is new after a refusal (4xx): the server stored nothing under the old one', async () => {
      const calls = api({
        extra: { 'POST /api/jobs/export': () => reply(409, { statusCode: 409, error: 'invalid_request', message: 'Clip "Intro" is not ready to publish (processing).' }) },
      });
      renderPublish();
      const dialog = await openDialog();
      await publishAndWait(calls, dialog, 'Publish 2 Item(s)', 1);
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' })).toBeEnabled());
      await publishAndWait(calls, dialog, 'Publish 2 Item(s)', 2);
      const [first, second] = keysSent(calls);
      expect(second).not.toBe(first);
    });
  });

  it('without a token toasts that the video or token is missing', async () => {
    const calls = api();
    renderPublish();
    const dialog = await openDialog();
    act(() => sessionStore.clear());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    await waitFor(() => expect(toasts.all.at(-1)).toMatchObject({ title: 'Export Failed', description: 'Video or authentication token missing' }));
    expect(calls.count('POST', '/api/jobs/export')).toBe(0);
  });
});

describe('the clone flow', () => {
  const CLONE_SESSION = 'sess-clone';

  function cloneApi(cloneToken: string, videoAfter: () => Video, gate: Promise<void> = Promise.resolve()) {
    let cloned = false;
    const order: string[] = [];
    const calls = routeFetch({
      [`GET ${videoPath}`]: () => {
        order.push('GET video');
        return reply(200, cloned ? videoAfter() : makeVideo());
      },
      [`GET ${clipsPath}`]: () => reply(200, []),
      'POST /api/wordcut/clone': async () => {
        order.push('POST clone');
        await gate;
        cloned = true;
        return reply(200, { token: cloneToken, sessionId: CLONE_SESSION, providerVideoId: 'pv-clone' });
      },
      'POST /api/jobs/export': () => {
        order.push('POST export');
        return reply(202, { jobId: 'export_9', status: 'queued', itemCount: 2, quota: { exportsToday: 1, maxPerDay: null, exportsThisMonth: 1, maxPerMonth: null, nextDailyReset: 'x', nextMonthlyReset: 'y' } });
      },
      'GET /api/jobs/export_9/status': () => reply(200, jobStatus({ jobId: 'export_9', status: 'queued' })),
    });
    return { calls, order };
  }

  it('clones, refreshes the video, toasts, then exports with the new token and session', async () => {
    const cloneToken = sessionToken({ sessionId: CLONE_SESSION, videoId: 'pv-clone', isClone: true });
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { calls, order } = cloneApi(cloneToken, () => makeVideo({ providerSessionId: CLONE_SESSION, providerVideoId: 'pv-clone', providerIsClone: true }), gate);
    renderPublish();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Publish changes to new video (clone)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    expect(await within(dialog).findByRole('button', { name: 'Cloning video...' })).toBeDisabled();
    await act(async () => open());

    await screen.findByRole('dialog', { name: 'Exporting to the provider' });
    expect(order.slice(order.indexOf('POST clone'))).toEqual(['POST clone', 'GET video', 'POST export']);
    expect(JSON.parse(String(calls.calls.find((c) => c.url === '/api/wordcut/clone')!.init!.body))).toEqual({ videoId: VIDEO_ID });
    expect(calls.authOf(calls.calls.find((c) => c.url === '/api/wordcut/clone')!)).toBe(`Bearer ${TOKEN}`);
    const body = calls.bodies('POST', '/api/jobs/export')[0]!;
    expect(body).toMatchObject({ sessionId: CLONE_SESSION, token: cloneToken, saveMainVideo: true, saveVtt: true });
    expect(toasts.all.map((t) => [t.title, t.description])).toEqual([
      ['Video cloned', 'Exporting to new video...'],
      ['Export Started', 'Uploading 2 item(s) to the provider'],
    ]);
    // the clone's token is the session's now
    expect(sessionStore.get()).toMatchObject({ token: cloneToken, sessionId: CLONE_SESSION, isClone: true });
  });

  it('exports the clone under a new idempotency key after an attempt with no answer: its request names the new session', async () => {
    const cloneToken = sessionToken({ sessionId: CLONE_SESSION, videoId: 'pv-clone', isClone: true });
    const { calls } = cloneApi(cloneToken, () => makeVideo({ providerSessionId: CLONE_SESSION, providerVideoId: 'pv-clone', providerIsClone: true }));
    const created = calls.routes['POST /api/jobs/export']!;
    let answered = false;
    calls.routes['POST /api/jobs/export'] = (url, init) => {
      if (answered) return created(url, init);
      answered = true;
      return reply(503, { statusCode: 503, error: 'export_failed', message: 'Failed to create export job' });
    };
    renderPublish();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    await waitFor(() => expect(toasts.all.at(-1)).toMatchObject({ title: 'Export Failed', description: 'Failed to create export job' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' })).toBeEnabled());
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Publish changes to new video (clone)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));

    await screen.findByRole('dialog', { name: 'Exporting to the provider' });
    const [original, clone] = calls.bodies('POST', '/api/jobs/export');
    expect(original).toMatchObject({ sessionId: SESSION_ID });
    expect(clone).toMatchObject({ sessionId: CLONE_SESSION, token: cloneToken });
    expect(clone!['idempotencyKey']).not.toBe(original!['idempotencyKey']);
  });

  it("stops with 'Export delayed...' when the new token's session is not the refreshed video's", async () => {
    const cloneToken = sessionToken({ sessionId: CLONE_SESSION });
    const { calls } = cloneApi(cloneToken, () => makeVideo({ providerSessionId: SESSION_ID }));
    renderPublish();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Publish changes to new video (clone)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    await waitFor(() =>
      expect(toasts.all.at(-1)).toEqual({ title: 'Export Failed', description: 'Export delayed - Video data is updating, please try again in a moment', variant: 'destructive' }),
    );
    expect(calls.count('POST', '/api/jobs/export')).toBe(0);
    // the video is marked as a clone: the toggle is gone
    expect(within(dialog).queryByRole('switch')).not.toBeInTheDocument();
  });

  it("says 'Failed to process cloned video token' for a token it cannot read", async () => {
    const { calls } = cloneApi('not-a-jwt', () => makeVideo({ providerSessionId: CLONE_SESSION }));
    renderPublish();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Publish changes to new video (clone)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    await waitFor(() => expect(toasts.all.at(-1)).toMatchObject({ title: 'Export Failed', description: 'Failed to process cloned video token' }));
    expect(calls.count('POST', '/api/jobs/export')).toBe(0);
  });

  it("toasts 'Clone failed' with the server's message", async () => {
    const calls = api({ extra: { 'POST /api/wordcut/clone': () => reply(409, { statusCode: 409, error: 'already_clone', message: 'This video is already a clone' }) } });
    renderPublish();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Publish changes to new video (clone)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    await waitFor(() => expect(toasts.all.at(-1)).toEqual({ title: 'Clone failed', description: 'This video is already a clone', variant: 'destructive' }));
    expect(calls.count('POST', '/api/jobs/export')).toBe(0);
  });

  it("answers a clone without a message with 'Clone request failed'", async () => {
    api({ extra: { 'POST /api/wordcut/clone': () => reply(502, '') } });
    renderPublish();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Publish changes to new video (clone)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish 2 Item(s)' }));
    await waitFor(() => expect(toasts.all.at(-1)).toMatchObject({ title: 'Clone failed', description: 'Clone request failed' }));
  });
});

// keep the token helper honest: the claims the browser reads are the ones given
test('fixture tokens decode to their claims', () => {
  const token = makeToken({ sessionId: 'x' });
  expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).toEqual({ sessionId: 'x' });
});
