/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { act, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { ACTIVE_JOBS_STORAGE_KEY, ACTIVE_JOB_TTL_MS } from '@wordcut/editor-core';
import type { StoredActiveJob } from '@wordcut/editor-core';
import { createQueryClient, dismissToast, getToasts } from '@wordcut/ui';
import { clearSessionToken, setSessionToken } from '../shared/sessionToken';
import { VIDEO_ID, reply, routeFetch } from '../testing/fixtures';
import type { Handler } from '../testing/fixtures';
import { JobOverlay } from './JobOverlay';
import { RECONNECTING_MESSAGE, useJobRunner } from './jobRunner';
import type { JobPersistence, JobRunner, JobSpec } from './jobRunner';
import { JOB_SPECS, storedJobSpec } from './specs';

/**
 * useJobRunner with persistence and its overlay: a started job is kept under 'wordcut_active_jobs'
 * until it ends, and a reload reconnects to the video's stored job. Timers are faked; the status
 * calls go through a fake fetch router whose answers the test releases one by one; the runner polls
 * through the page's job poller, so the page's QueryClient is provided.
 */

const NOW = Date.UTC(2025, 4, 6, 12, 0, 0);
const OTHER_VIDEO = '11111111-2222-4333-8444-555555555555';
const videoJob = (id: string) => `/api/video-processing/jobs/${id}`;

interface Status {
  status: string;
  progress: number;
  message?: string | null;
  estimatedTimeRemaining?: number | null;
  error?: string | null;
}

/** Status answers the test hands out: each poll waits until the test gives it one. */
class StatusFeed {
  private waiting: Array<(r: Response) => void> = [];
  polls = 0;

  readonly handler: Handler = () => {
    this.polls += 1;
    return new Promise<Response>((resolve) => this.waiting.push(resolve));
  };

  get pending(): number {
    return this.waiting.length;
  }

  /** Answers the oldest waiting poll and lets the runner handle it. */
  async answer(status: Status | Response): Promise<void> {
    const resolve = this.waiting.shift();
    if (!resolve) throw new Error('no poll is waiting');
    await act(async () => {
      resolve(status instanceof Object && 'text' in status ? status : reply(200, { message: null, estimatedTimeRemaining: null, error: null, ...status }));
      await jest.advanceTimersByTimeAsync(0);
    });
  }
}

const stored = (): StoredActiveJob[] => {
  const raw = localStorage.getItem(ACTIVE_JOBS_STORAGE_KEY);
  return raw === null ? [] : (JSON.parse(raw) as StoredActiveJob[]);
};

const store = (jobs: StoredActiveJob[]) => localStorage.setItem(ACTIVE_JOBS_STORAGE_KEY, JSON.stringify(jobs));

const advance = async (ms: number) => {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });
};

const overlay = () => screen.queryByTestId('job-overlay');
const message = () => screen.getByTestId('job-message').textContent;

interface Mounted {
  runner: () => JobRunner;
  refresh: jest.Mock;
  unmount: () => void;
}

function mount(options: { storage?: Storage | null; videoId?: string; specFor?: JobPersistence['specFor'] } = {}): Mounted {
  let latest: JobRunner | null = null;
  const refresh = jest.fn(async () => undefined);
  const persist: JobPersistence = {
    videoId: options.videoId ?? VIDEO_ID,
    storage: options.storage === undefined ? localStorage : options.storage,
    specFor: options.specFor ?? ((record) => storedJobSpec(record.type, refresh)),
  };
  function Page() {
    const runner = useJobRunner(persist);
    latest = runner;
    return <JobOverlay job={runner.job} onCancel={() => void runner.cancel()} />;
  }
  const view = render(
    <QueryClientProvider client={createQueryClient()}>
      <Page />
    </QueryClientProvider>,
  );
  return { runner: () => latest!, refresh, unmount: view.unmount };
}

function cutSpec(jobId: string, patch: Partial<JobSpec> = {}): JobSpec {
  return { ...JOB_SPECS.cut!, jobId, onCompleted: jest.fn(), onEnded: jest.fn(), ...patch };
}

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  jest.setSystemTime(NOW);
  localStorage.clear();
  dismissToast();
  clearSessionToken();
});
afterEach(() => {
  jest.useRealTimers();
  localStorage.clear();
});

describe('starting a job', () => {
  it('stores {jobId, type, videoId, startedAt} and forgets it once the job has finished', async () => {
    const feed = new StatusFeed();
    routeFetch({ [`GET ${videoJob('cut_1')}`]: feed.handler });
    const other: StoredActiveJob = { jobId: 'filler_7', type: 'filler', videoId: OTHER_VIDEO, startedAt: NOW - 60_000 };
    store([other]);
    const page = mount();
    expect(overlay()).toBeNull();
    expect(feed.polls).toBe(0); // the other video's job is not this page's

    const spec = cutSpec('cut_1');
    act(() => page.runner().start(spec));
    expect(stored()).toEqual([other, { jobId: 'cut_1', type: 'cut', videoId: VIDEO_ID, startedAt: NOW }]);
    expect(overlay()).toHaveAttribute('data-phase', 'running');
    expect(message()).toBe('Starting...');

    await advance(2000);
    await feed.answer({ status: 'processing', progress: 40, message: 'Encoding' });
    expect(message()).toBe('Encoding');
    expect(screen.getByTestId('job-percent')).toHaveTextContent('40%');
    expect(stored().map((j) => j.jobId)).toEqual(['filler_7', 'cut_1']);

    await advance(2000);
    await feed.answer({ status: 'completed', progress: 100 });
    expect(spec.onCompleted).toHaveBeenCalledTimes(1);
    expect(overlay()).toHaveAttribute('data-phase', 'complete');
    expect(message()).toBe('Processing complete!');
    await advance(2000);
    expect(message()).toBe('Loading Updated Video');
    await advance(2000);
    expect(overlay()).toBeNull();
    expect(stored()).toEqual([other]);
    expect(spec.onEnded).not.toHaveBeenCalled();
  });

  it('the stored type defaults to the poll kind, and a repeated start replaces the record', async () => {
    routeFetch({});
    const page = mount();
    const { type: _type, ...untyped } = JOB_SPECS.mute!;
    act(() => page.runner().start({ ...untyped, jobId: 'mute_1' }));
    expect(stored()).toEqual([{ jobId: 'mute_1', type: 'mute', videoId: VIDEO_ID, startedAt: NOW }]);
    jest.setSystemTime(NOW + 5000);
    act(() => page.runner().start({ ...untyped, jobId: 'mute_1' }));
    expect(stored()).toEqual([{ jobId: 'mute_1', type: 'mute', videoId: VIDEO_ID, startedAt: NOW + 5000 }]);
  });

  it('a failed job is forgotten, ends the overlay and toasts the failure', async () => {
    const feed = new StatusFeed();
    routeFetch({ [`GET ${videoJob('cut_2')}`]: feed.handler });
    const page = mount();
    const spec = cutSpec('cut_2');
    act(() => page.runner().start(spec));
    await advance(2000);
    await feed.answer({ status: 'error', progress: 30, error: 'ffmpeg exited with code 1' });
    expect(overlay()).toBeNull();
    expect(stored()).toEqual([]);
    expect(localStorage.getItem(ACTIVE_JOBS_STORAGE_KEY)).toBeNull();
    expect(spec.onEnded).toHaveBeenCalledTimes(1);
    expect(getToasts()[0]).toMatchObject({ title: 'Video processing failed', description: 'ffmpeg exited with code 1', variant: 'destructive' });
  });

  it('Cancel job posts the cancel with the bearer header, polls at once and forgets the cancelled job', async () => {
    setSessionToken('tok-123');
    const feed = new StatusFeed();
    const api = routeFetch({
      [`GET /api/jobs/mute_3/status`]: feed.handler,
      'POST /api/jobs/mute_3/cancel': () => reply(200, { ok: true }),
    });
    const page = mount();
    const spec: JobSpec = { ...JOB_SPECS.mute!, jobId: 'mute_3' };
    act(() => page.runner().start(spec));
    expect(stored()).toHaveLength(1);
    await act(async () => {
      screen.getByRole('button', { name: 'Cancel job' }).click();
      await jest.advanceTimersByTimeAsync(0);
    });
    const post = api.calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe('/api/jobs/mute_3/cancel');
    expect(new Headers(post.init?.headers).get('authorization')).toBe('Bearer tok-123');
    expect(feed.pending).toBe(1); // polled without waiting 2 s
    await feed.answer({ status: 'cancelled', progress: 10 });
    expect(overlay()).toBeNull();
    expect(stored()).toEqual([]);
    expect(getToasts()[0]).toMatchObject({ title: 'Mute processing cancelled', description: 'The job was cancelled.' });
  });

  it('poll network errors are ignored: the next poll 2 s later carries on', async () => {
    let down = true;
    const feed = new StatusFeed();
    const api = routeFetch({
      [`GET ${videoJob('cut_4')}`]: (url, init) => (down ? Promise.reject(new TypeError('Failed to fetch')) : feed.handler(url, init)),
    });
    const page = mount();
    act(() => page.runner().start(cutSpec('cut_4')));
    await advance(2000);
    expect(api.count('GET', videoJob('cut_4'))).toBe(1);
    expect(overlay()).not.toBeNull();
    expect(stored()).toHaveLength(1);
    down = false;
    await advance(2000);
    await feed.answer({ status: 'processing', progress: 70, message: 'Uploading' });
    expect(message()).toBe('Uploading');
  });

  it('works without storage (blocked), and survives a storage that throws', async () => {
    routeFetch({});
    const page = mount({ storage: null });
    act(() => page.runner().start(cutSpec('cut_5')));
    expect(overlay()).not.toBeNull();
    page.unmount();

    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
      clear: () => undefined,
      key: () => null,
      length: 0,
    } as Storage;
    const second = mount({ storage: throwing });
    act(() => second.runner().start(cutSpec('cut_6')));
    expect(screen.getByTestId('job-overlay')).toHaveAttribute('data-job-id', 'cut_6');
  });
});

describe('reconnecting after a reload', () => {
  it("shows 'Reconnecting to job in progress...' for the video's newest stored job, polls at once, then shows its status", async () => {
    const feed = new StatusFeed();
    const api = routeFetch({ [`GET ${videoJob('filler_9')}`]: feed.handler });
    store([
      { jobId: 'cut_8', type: 'cut', videoId: VIDEO_ID, startedAt: NOW - 10 * 60_000 },
      { jobId: 'filler_9', type: 'filler', videoId: VIDEO_ID, startedAt: NOW - 60_000 },
      { jobId: 'caption_1', type: 'caption', videoId: OTHER_VIDEO, startedAt: NOW - 1000 },
    ]);
    const page = mount();
    expect(overlay()).toHaveAttribute('data-job-id', 'filler_9');
    expect(screen.getByRole('heading', { name: 'Removing filler words' })).toBeInTheDocument();
    expect(message()).toBe(RECONNECTING_MESSAGE);
    expect(message()).toBe('Reconnecting to job in progress...');
    await act(async () => {
      await jest.advanceTimersByTimeAsync(0);
    });
    expect(api.count('GET', videoJob('filler_9'))).toBe(1); // no 2 s wait
    expect(api.calls.map((c) => c.url)).toEqual([videoJob('filler_9')]);

    await feed.answer({ status: 'processing', progress: 55, message: 'Removing 12 filler words' });
    expect(message()).toBe('Removing 12 filler words');
    expect(screen.getByTestId('job-percent')).toHaveTextContent('55%');

    // it runs to the end like a started job, refreshing the page's data and forgetting the record
    await advance(2000);
    await feed.answer({ status: 'completed', progress: 100 });
    expect(page.refresh).toHaveBeenCalledTimes(1);
    await advance(4000);
    expect(overlay()).toBeNull();
    expect(stored().map((j) => j.jobId)).toEqual(['cut_8', 'caption_1']);
  });

  it('a mute job reconnects on the mute status path', async () => {
    const feed = new StatusFeed();
    routeFetch({ 'GET /api/jobs/mute_2/status': feed.handler });
    store([{ jobId: 'mute_2', type: 'mute', videoId: VIDEO_ID, startedAt: NOW - 1000 }]);
    mount();
    await advance(0);
    expect(feed.polls).toBe(1);
    await feed.answer({ status: 'processing', progress: 20, message: 'Muting' });
    expect(screen.getByRole('heading', { name: 'Processing audio' })).toBeInTheDocument();
    expect(message()).toBe('Muting');
  });

  it('a 404 poll forgets the job and closes the overlay', async () => {
    const feed = new StatusFeed();
    const api = routeFetch({ [`GET ${videoJob('cut_3')}`]: feed.handler });
    const other: StoredActiveJob = { jobId: 'reorder_1', type: 'reorder', videoId: OTHER_VIDEO, startedAt: NOW - 5000 };
    store([{ jobId: 'cut_3', type: 'cut', videoId: VIDEO_ID, startedAt: NOW - 5000 }, other]);
    mount();
    expect(message()).toBe(RECONNECTING_MESSAGE);
    await advance(0);
    await feed.answer(reply(404, { statusCode: 404, code: 'NOT_FOUND', message: 'Job not found' }));
    expect(overlay()).toBeNull();
    expect(stored()).toEqual([other]);
    await advance(10_000);
    expect(api.count('GET', videoJob('cut_3'))).toBe(1); // not polled again
    expect(getToasts()).toEqual([]); // forgotten silently
  });

  it.each([
    ['24 h old', NOW - ACTIVE_JOB_TTL_MS],
    ['older than 24 h', NOW - ACTIVE_JOB_TTL_MS - 1],
    ['more than a minute in the future', NOW + 2 * 60_000],
  ])('ignores a record %s', async (_label, startedAt) => {
    const api = routeFetch({});
    store([{ jobId: 'cut_1', type: 'cut', videoId: VIDEO_ID, startedAt }]);
    mount();
    await advance(5000);
    expect(overlay()).toBeNull();
    expect(api.calls).toHaveLength(0);
  });

  it('reconnects to a record just under 24 h old', async () => {
    const feed = new StatusFeed();
    routeFetch({ [`GET ${videoJob('cut_1')}`]: feed.handler });
    store([{ jobId: 'cut_1', type: 'cut', videoId: VIDEO_ID, startedAt: NOW - ACTIVE_JOB_TTL_MS + 60_000 }]);
    mount();
    expect(message()).toBe(RECONNECTING_MESSAGE);
    await advance(0);
    expect(feed.polls).toBe(1);
  });

  it('forgets a stored job the page cannot follow (no spec for its type)', async () => {
    const api = routeFetch({});
    const other: StoredActiveJob = { jobId: 'cut_2', type: 'cut', videoId: OTHER_VIDEO, startedAt: NOW - 1000 };
    store([{ jobId: 'x_1', type: 'transcode', videoId: VIDEO_ID, startedAt: NOW - 1000 }, other]);
    mount();
    await advance(3000);
    expect(overlay()).toBeNull();
    expect(api.calls).toHaveLength(0);
    expect(stored()).toEqual([other]);
  });

  it('ignores a malformed stored value', async () => {
    const api = routeFetch({});
    localStorage.setItem(ACTIVE_JOBS_STORAGE_KEY, '{not json');
    mount();
    await advance(3000);
    expect(overlay()).toBeNull();
    expect(api.calls).toHaveLength(0);
  });
});
