/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient, dismissToast, getToasts } from '@wordcut/ui';
import { clearSessionToken, setSessionToken } from '../shared/sessionToken';
import { VIDEO_ID, fakeLayout, makeTranscript, makeVideo, renderEditor, reply, routeFetch } from '../testing/fixtures';
import type { Handler } from '../testing/fixtures';
import { ActiveJobs } from './ActiveJobs';
import type { UserJob } from './ActiveJobs';

/**
 * The floating 'Active Jobs (n)' button and the Active Jobs dialog (the list, its polling, cancel),
 * against a fake fetch router.
 */

const JOBS_PATH = '/api/jobs/user-jobs';
const TOKEN = 'provider.jwt.token';

const job = (id: string, status: string, patch: Partial<UserJob> = {}): UserJob => ({ id, status, progress: 0, message: null, error: null, ...patch });

const JOBS: UserJob[] = [
  job('cut_1', 'processing', { progress: 42.4, message: 'Cutting segment 3 of 7' }),
  job('filler_2', 'pending'),
  job('silence_3', 'error', { error: 'ffmpeg crashed' }),
  job('caption_4', 'processing', { progress: 80 }),
  job('done_5', 'completed', { progress: 100 }),
  job('reorder_6', 'pending'),
  job('gone_7', 'cancelled'),
  job('mute_8', 'failed'),
];

function routes(jobs: () => UserJob[] | { jobs: UserJob[] } | Response, extra: Record<string, Handler> = {}) {
  return routeFetch({
    [`GET ${JOBS_PATH}`]: () => {
      const answer = jobs();
      return answer instanceof Object && 'status' in answer && 'text' in answer ? answer : reply(200, answer);
    },
    ...extra,
  });
}

const authorization = (init: RequestInit | undefined) => new Headers(init?.headers).get('authorization');

function renderJobs() {
  const client = createQueryClient();
  return render(
    <QueryClientProvider client={client}>
      <ActiveJobs />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  dismissToast();
  clearSessionToken();
});
afterEach(() => {
  clearSessionToken();
  jest.useRealTimers();
});

describe('ActiveJobs', () => {
  it('without a session token shows nothing and calls nothing', async () => {
    const api = routes(() => JOBS);
    const view = renderJobs();
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(view.container).toBeEmptyDOMElement();
    expect(screen.queryByTestId('active-jobs-button')).not.toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it("with a token, the button reads 'Active Jobs (n)', n counting pending and processing jobs", async () => {
    setSessionToken(TOKEN);
    const api = routes(() => JOBS);
    renderJobs();
    expect(await screen.findByTestId('active-jobs-button')).toHaveTextContent('Active Jobs (4)');
    expect(api.calls[0]!.url).toBe(JOBS_PATH);
    expect(authorization(api.calls[0]!.init)).toBe(`Bearer ${TOKEN}`);
  });

  it('accepts the list wrapped as { jobs }', async () => {
    setSessionToken(TOKEN);
    routes(() => ({ jobs: [job('cut_1', 'processing')] }));
    renderJobs();
    expect(await screen.findByTestId('active-jobs-button')).toHaveTextContent('Active Jobs (1)');
  });

  it('shows no button while no job is pending or processing', async () => {
    setSessionToken(TOKEN);
    const api = routes(() => [job('done_5', 'completed'), job('silence_3', 'error'), job('gone_7', 'cancelled')]);
    const view = renderJobs();
    await waitFor(() => expect(api.count('GET', JOBS_PATH)).toBe(1));
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(view.container).toBeEmptyDOMElement();
  });

  it('the dialog lists pending, processing and failed jobs with their kind, progress and Cancel for active ones', async () => {
    setSessionToken(TOKEN);
    routes(() => JOBS);
    renderJobs();
    fireEvent.click(await screen.findByTestId('active-jobs-button'));
    const dialog = await screen.findByTestId('active-jobs-dialog');
    expect(within(dialog).getByRole('heading', { name: 'Active Jobs' })).toBeInTheDocument();
    const cards = within(dialog).getAllByTestId('active-job');
    const summary = cards.map((c) => ({
      kind: c.querySelector('strong')?.textContent,
      status: c.getAttribute('data-status'),
      cancel: within(c).queryByRole('button', { name: 'Cancel' }) !== null,
    }));
    expect(summary).toEqual([
      { kind: 'Apply Cuts', status: 'processing', cancel: true },
      { kind: 'Remove Filler Words', status: 'pending', cancel: true },
      { kind: 'Remove Silences', status: 'error', cancel: false },
      { kind: 'Burn Captions', status: 'processing', cancel: true },
      { kind: 'Processing', status: 'pending', cancel: true },
      { kind: 'Processing', status: 'failed', cancel: false },
    ]);
    const [cut, , silence, caption, , mute] = cards as [HTMLElement, HTMLElement, HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(within(cut).getByRole('progressbar', { name: 'Apply Cuts progress' })).toHaveAttribute('aria-valuenow', '42');
    expect(cut).toHaveTextContent('Cutting segment 3 of 7');
    expect(within(caption).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '80');
    expect(silence).toHaveTextContent('ffmpeg crashed');
    expect(within(silence).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(mute).toHaveTextContent('The job failed.');
    expect(dialog).not.toHaveTextContent('done_5');
  });

  it('Cancel posts /api/jobs/{id}/cancel with the bearer header and refreshes the list', async () => {
    setSessionToken(TOKEN);
    let jobs = [job('filler_2', 'pending'), job('cut_1', 'processing', { progress: 10 })];
    const api = routes(() => jobs, {
      'POST /api/jobs/filler_2/cancel': () => {
        jobs = [job('filler_2', 'cancelled'), job('cut_1', 'processing', { progress: 10 })];
        return reply(200, { id: 'filler_2', status: 'cancelled' });
      },
    });
    renderJobs();
    fireEvent.click(await screen.findByTestId('active-jobs-button'));
    const dialog = await screen.findByTestId('active-jobs-dialog');
    const fillerCard = within(dialog).getAllByTestId('active-job')[0]!;
    expect(fillerCard).toHaveTextContent('Remove Filler Words');
    const fetches = api.count('GET', JOBS_PATH);
    fireEvent.click(within(fillerCard).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(api.count('POST', '/api/jobs/filler_2/cancel')).toBe(1));
    const post = api.calls.find((c) => c.method === 'POST')!;
    expect(authorization(post.init)).toBe(`Bearer ${TOKEN}`);
    await waitFor(() => expect(api.count('GET', JOBS_PATH)).toBeGreaterThan(fetches));
    await waitFor(() => expect(within(dialog).getAllByTestId('active-job')).toHaveLength(1));
    expect(screen.getByTestId('active-jobs-button')).toHaveTextContent('Active Jobs (1)');
  });

  it("a failed cancel toasts 'Failed to cancel job' with the server's message", async () => {
    setSessionToken(TOKEN);
    routes(() => [job('cut_1', 'processing')], {
      'POST /api/jobs/cut_1/cancel': () => reply(409, { statusCode: 409, message: 'Job already finished' }),
    });
    renderJobs();
    fireEvent.click(await screen.findByTestId('active-jobs-button'));
    fireEvent.click(within(await screen.findByTestId('active-jobs-dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({ title: 'Failed to cancel job', description: 'Job already finished', variant: 'destructive' }),
    );
  });

  it('polls every 3 s in the page while jobs are active, every 2 s with the dialog open, and not at all once none are', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    setSessionToken(TOKEN);
    let jobs = [job('cut_1', 'processing')];
    const api = routes(() => jobs);
    renderJobs();
    await screen.findByTestId('active-jobs-button');
    const count = () => api.count('GET', JOBS_PATH);
    const advance = async (ms: number) => {
      await act(async () => {
        await jest.advanceTimersByTimeAsync(ms);
      });
    };
    const start = count();
    await advance(2900);
    expect(count()).toBe(start);
    await advance(100);
    expect(count()).toBe(start + 1);

    fireEvent.click(screen.getByTestId('active-jobs-button'));
    await screen.findByTestId('active-jobs-dialog');
    const opened = count();
    await advance(2000);
    expect(count()).toBe(opened + 1);
    await advance(2000);
    expect(count()).toBe(opened + 2);

    // closed, with no active job left: polling stops and the button goes
    jobs = [job('cut_1', 'completed')];
    await advance(2000);
    fireEvent.click(within(screen.getByTestId('active-jobs-dialog')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('active-jobs-button')).not.toBeInTheDocument());
    const closed = count();
    await advance(10_000);
    expect(count()).toBe(closed);
  });

  it('the editor page shows the button for the session', async () => {
    const layout = fakeLayout();
    try {
      setSessionToken(TOKEN);
      const videoPath = `/api/videos/${VIDEO_ID}`;
      const api = routes(() => [job('caption_4', 'processing', { progress: 12 })], {
        'GET /api/vtt/status': () => reply(200, { configured: true, method: 'VTT Upload', legacyUploadEnabled: true }),
        [`GET ${videoPath}`]: () => reply(200, makeVideo()),
        [`GET ${videoPath}/transcript`]: () => reply(200, makeTranscript()),
        [`GET ${videoPath}/waveform`]: () => reply(200, { peaks: [0.1, 0.5], duration: 30, cached: true }),
        [`GET ${videoPath}/clips`]: () => reply(200, []),
      });
      renderEditor(`/editor/${VIDEO_ID}`);
      expect(await screen.findByTestId('active-jobs-button')).toHaveTextContent('Active Jobs (1)');
      const call = api.calls.find((c) => c.url === JOBS_PATH)!;
      expect(authorization(call.init)).toBe(`Bearer ${TOKEN}`);
    } finally {
      layout.restore();
    }
  });
});
