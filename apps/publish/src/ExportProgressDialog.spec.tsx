/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient, dismissToast, sessionStore } from '@wordcut/ui';
import { ExportProgressDialog } from './ExportProgressDialog';
import { useExportJob } from './useExportJob';
import { jobStatus, recordToasts, reply, routeFetch, sessionToken } from './testing/fixtures';
import type { Handler } from './testing/fixtures';

/**
 * The export job in the browser: polling every 2 s (the page's job poller, which needs the page's
 * QueryClient) with 3 retries backing off from 1 s, the locked progress dialog, the completed summary, and
 * a failure's message, details, retryAfter countdown, retry and upgrade path. Fake timers drive
 * the clock; fetch is a fake router.
 */

function Harness({ onCompleted }: { onCompleted?: () => void }) {
  const job = useExportJob({ onCompleted });
  return (
    <>
      <button type="button" onClick={() => job.start('export_1')}>
        start
      </button>
      <ExportProgressDialog state={job.state} retrying={job.retrying} onRetry={job.retry} onClose={job.close} />
    </>
  );
}

const STATUS_1 = '/api/jobs/export_1/status';

async function tick(ms: number) {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });
}

function start(routes: Record<string, Handler>, onCompleted?: () => void) {
  const calls = routeFetch(routes);
  const times: number[] = [];
  const original = calls.mock.getMockImplementation()!;
  calls.mock.mockImplementation(async (input: string, init?: RequestInit) => {
    if (input.endsWith('/status')) times.push(Date.now());
    return original(input, init);
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Harness onCompleted={onCompleted} />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'start' }));
  return { calls, times };
}

let toasts: ReturnType<typeof recordToasts>;
beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  jest.setSystemTime(new Date('2025-03-01T10:00:00.000Z'));
  dismissToast();
  sessionStore.setToken(sessionToken());
  toasts = recordToasts();
});
afterEach(() => {
  toasts.stop();
  sessionStore.clear();
  jest.restoreAllMocks();
  jest.useRealTimers();
});

describe('while the job runs', () => {
  it('shows the title, percent, step and estimate, and cannot be closed', async () => {
    let answer = () =>
      reply(200, jobStatus({ status: 'processing', progress: 40, currentStep: '', estimatedCompletion: new Date(Date.now() + 65_000).toISOString() }));
    const completed = jest.fn();
    start({ [`GET ${STATUS_1}`]: () => answer() }, completed);
    await tick(0);
    const dialog = screen.getByRole('dialog', { name: 'Exporting to the provider' });
    expect(within(dialog).getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute('aria-valuenow', '40');
    expect(within(dialog).getByText('40%')).toBeInTheDocument();
    expect(within(dialog).getByRole('status')).toHaveTextContent('Preparing export...');
    expect(within(dialog).getByText('Estimated time remaining: 1m 5s')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button')).not.toBeInTheDocument();
    // locked: Escape and a click outside leave it open
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.pointerDown(document.body);
    await tick(0);
    expect(screen.getByRole('dialog', { name: 'Exporting to the provider' })).toBeInTheDocument();

    answer = () => reply(200, jobStatus({ status: 'processing', progress: 90, currentStep: 'Uploading clips', estimatedCompletion: new Date(Date.now() - 1000).toISOString() }));
    await tick(2000);
    expect(within(dialog).getByRole('status')).toHaveTextContent('Uploading clips');
    expect(within(dialog).getByText('Almost done...')).toBeInTheDocument();

    answer = () => reply(200, jobStatus({ status: 'completed', progress: 100, items: [] }));
    await tick(2000);
    const done = screen.getByRole('dialog', { name: 'Export Complete' });
    expect(completed).toHaveBeenCalledTimes(1);
    expect(toasts.all.map((t) => t.title)).toEqual(['Export Complete']);
    fireEvent.keyDown(done, { key: 'Escape' });
    await tick(0);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('counts the subtitles once: their word-by-word timing is listed but is not another item', async () => {
    const item = (type: 'vtt' | 'word_by_word', name: string) => ({ type, id: type, name, status: 'uploaded' as const, bytes: 10, providerVideoId: null, providerConfirmed: true, error: null });
    start({ [`GET ${STATUS_1}`]: () => reply(200, jobStatus({ status: 'completed', progress: 100, items: [item('vtt', 'Demo (subtitles)'), item('word_by_word', 'Demo (word-by-word timing)')] })) });
    await tick(0);
    const done = screen.getByRole('dialog', { name: 'Export Complete' });
    expect(within(done).getByText('1 item(s) uploaded to the provider.')).toBeInTheDocument();
    expect(within(within(done).getByRole('list', { name: 'Uploaded items' })).getAllByRole('listitem')).toHaveLength(2);
  });

  it("says 'Calculating...' until the service gives an estimate", async () => {
    start({ [`GET ${STATUS_1}`]: () => reply(200, jobStatus({ status: 'queued' })) });
    await tick(0);
    expect(screen.getByText('Calculating...')).toBeInTheDocument();
    expect(screen.getByText('0%')).toBeInTheDocument();
  });

  it('polls every 2 s', async () => {
    const { times } = start({ [`GET ${STATUS_1}`]: () => reply(200, jobStatus({ status: 'processing', progress: 10 })) });
    await tick(0);
    await tick(6000);
    expect(times.map((t) => t - times[0]!)).toEqual([0, 2000, 4000, 6000]);
  });

  it('retries a failed poll 3 times, waiting up to 1 s, 2 s and 4 s (half of each with this draw), then shows the status error; Retry polls again', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    let fail = true;
    const { times, calls } = start({
      [`GET ${STATUS_1}`]: () => (fail ? reply(503, { statusCode: 503, error: 'status_fetch_failed', message: 'Failed to fetch job status' }) : reply(200, jobStatus({ status: 'processing', progress: 55 }))),
    });
    await tick(0);
    await tick(500);
    await tick(1000);
    // still locked while polling retries
    expect(screen.getByRole('dialog', { name: 'Exporting to the provider' })).toBeInTheDocument();
    await tick(2000);
    expect(times.map((t) => t - times[0]!)).toEqual([0, 500, 1500, 3500]);
    const dialog = screen.getByRole('dialog', { name: 'Export Failed' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Failed to fetch job status');
    // no more polls once it gave up
    await tick(30_000);
    expect(times).toHaveLength(4);

    fail = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    await tick(0);
    expect(calls.count('POST', '/api/jobs/export_1/retry')).toBe(0);
    expect(times).toHaveLength(5);
    expect(screen.getByText('55%')).toBeInTheDocument();
  });

  it('a poll that recovers goes back to the 2 s cadence', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    let answers = [503, 200, 200];
    const { times } = start({
      [`GET ${STATUS_1}`]: () => {
        const status = answers.shift() ?? 200;
        return status === 200 ? reply(200, jobStatus({ status: 'processing' })) : reply(status, 'busy');
      },
    });
    await tick(0);
    await tick(500);
    await tick(2000);
    await tick(2000);
    expect(times.map((t) => t - times[0]!)).toEqual([0, 500, 2500, 4500]);
    answers = [];
  });
});

describe('a failed job', () => {
  const failedWith = (error: Record<string, unknown> | null) => reply(200, jobStatus({ status: 'failed', progress: 30, error: error as never }));

  it("shows 'Export failed. Please try again.' without a message, and closes", async () => {
    start({ [`GET ${STATUS_1}`]: () => failedWith(null) });
    await tick(0);
    const dialog = screen.getByRole('dialog', { name: 'Export Failed' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Export failed. Please try again.');
    expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeEnabled();
    expect(within(dialog).queryByText('Technical details')).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await tick(0);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('counts a retryAfter wait down before Retry is possible, then retries as a new job', async () => {
    const { calls } = start({
      [`GET ${STATUS_1}`]: () => failedWith({ error: 'upload_failed', message: 'The provider refused the upload', details: 'HTTP 503 from the provider', retryAfter: 3 }),
      'POST /api/jobs/export_1/retry': () => reply(202, { jobId: 'export_2', status: 'queued', itemCount: 1, quota: { exportsToday: 1, maxPerDay: null, exportsThisMonth: 1, maxPerMonth: null, nextDailyReset: 'a', nextMonthlyReset: 'b' } }),
      'GET /api/jobs/export_2/status': () => reply(200, jobStatus({ jobId: 'export_2', status: 'processing', progress: 5 })),
    });
    await tick(0);
    const dialog = screen.getByRole('dialog', { name: 'Export Failed' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The provider refused the upload');
    const details = within(dialog).getByText('Technical details').closest('details')!;
    expect(details).not.toHaveAttribute('open');
    expect(details).toHaveTextContent('HTTP 503 from the provider');
    expect(within(dialog).getByText('Please wait 3 seconds before retrying.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeDisabled();
    await tick(1000);
    expect(within(dialog).getByText('Please wait 2 seconds before retrying.')).toBeInTheDocument();
    await tick(2000);
    expect(within(dialog).queryByText(/Please wait/)).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    await tick(0);
    expect(calls.count('POST', '/api/jobs/export_1/retry')).toBe(1);
    expect(calls.authOf(calls.calls.find((c) => c.url === '/api/jobs/export_1/retry')!)).toMatch(/^Bearer /);
    expect(toasts.all.at(-1)).toMatchObject({ title: 'Export Retrying' });
    expect(calls.count('GET', '/api/jobs/export_2/status')).toBe(1);
    expect(screen.getByRole('dialog', { name: 'Exporting to the provider' })).toBeInTheDocument();
    expect(screen.getByText('5%')).toBeInTheDocument();
  });

  it("toasts 'Retry Failed' and applies the refusal's wait", async () => {
    start({
      [`GET ${STATUS_1}`]: () => failedWith({ error: 'export_failed', message: 'Upload failed' }),
      'POST /api/jobs/export_1/retry': () => reply(429, { statusCode: 429, error: 'rate_limited', message: 'Too many retries', retryAfter: 5 }),
    });
    await tick(0);
    const dialog = screen.getByRole('dialog', { name: 'Export Failed' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    await tick(0);
    expect(toasts.all.at(-1)).toEqual({ title: 'Retry Failed', description: 'Too many retries', variant: 'destructive' });
    expect(within(dialog).getByText('Please wait 5 seconds before retrying.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeDisabled();
  });

  it('a retry refused because another export of the video runs follows that export instead', async () => {
    const { calls } = start({
      [`GET ${STATUS_1}`]: () => failedWith({ error: 'export_failed', message: 'Upload failed' }),
      'POST /api/jobs/export_1/retry': () =>
        reply(409, { statusCode: 409, error: 'export_in_progress', message: 'This video is already being published.', jobId: 'export_7' }),
      'GET /api/jobs/export_7/status': () => reply(200, jobStatus({ jobId: 'export_7', status: 'processing', progress: 40 })),
    });
    await tick(0);
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Export Failed' })).getByRole('button', { name: 'Retry' }));
    await tick(0);
    expect(toasts.all.at(-1)).toEqual({ title: 'Export in progress', description: 'This video is already being published.', variant: 'default' });
    expect(calls.count('GET', '/api/jobs/export_7/status')).toBe(1);
    expect(screen.getByRole('dialog', { name: 'Exporting to the provider' })).toBeInTheDocument();
    expect(screen.getByText('40%')).toBeInTheDocument();
    await tick(2000);
    expect(calls.count('GET', '/api/jobs/export_7/status')).toBe(2);
  });

  it("offers the upgrade link and button instead of Retry when the quota is exceeded", async () => {
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    start({
      [`GET ${STATUS_1}`]: () =>
        failedWith({ error: 'quota_exceeded', message: 'Export quota exceeded. Please upgrade your plan or wait until the quota resets.', upgradeUrl: 'https://provider.example/upgrade', retryAfter: 3600 }),
    });
    await tick(0);
    const dialog = screen.getByRole('dialog', { name: 'Export Failed' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent("You've reached your export limit.");
    const link = within(dialog).getByRole('link', { name: 'Upgrade your plan' });
    expect(link).toHaveAttribute('href', 'https://provider.example/upgrade');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(within(dialog).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(within(dialog).queryByText(/Please wait/)).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upgrade Plan' }));
    expect(open).toHaveBeenCalledWith('https://provider.example/upgrade', '_blank', 'noopener,noreferrer');
    open.mockRestore();
  });

  it('shows no upgrade link when the refusal has no upgradeUrl', async () => {
    start({ [`GET ${STATUS_1}`]: () => failedWith({ error: 'quota_exceeded', message: 'Export quota exceeded.' }) });
    await tick(0);
    const dialog = screen.getByRole('dialog', { name: 'Export Failed' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent("You've reached your export limit.");
    expect(within(dialog).queryByRole('link')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Upgrade Plan' })).not.toBeInTheDocument();
  });
});
