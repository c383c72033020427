/** @jest-environment jsdom */
import '@testing-library/jest-dom';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Query } from '@tanstack/react-query';
import type { JobStatus } from '@wordcut/contracts';
import { ApiError, createQueryClient, dismissToast, getToasts } from '@wordcut/ui';
import { JOB_POLL_INTERVAL_MS, ProbeCard, pollInterval } from './ProbeCard';

const jobId = 'probe_0b6f8a52-5c1e-4d3a-9a56-6f0f3d1c2b7e';
const base: JobStatus = {
  id: jobId,
  kind: 'probe',
  status: 'pending',
  progress: 0,
  message: '',
  estimatedTimeRemaining: null,
  error: null,
  result: null,
  attempts: 1,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  completedAt: null,
};

function reply(status: number, body: unknown) {
  const text = JSON.stringify(body);
  return { ok: status >= 200 && status < 300, status, statusText: '', text: async () => text } as unknown as Response;
}

const fetchMock = jest.fn<Promise<Response>, [string, RequestInit?]>();

beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
  dismissToast();
});

function renderCard() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ProbeCard />
    </QueryClientProvider>,
  );
}

function chooseAndSubmit() {
  const input = screen.getByLabelText('Media file');
  const file = new File(['data'], 'clip.mp4', { type: 'video/mp4' });
  fireEvent.change(input, { target: { files: [file] } });
  fireEvent.click(screen.getByRole('button', { name: 'Probe' }));
  return file;
}

describe('<ProbeCard />', () => {
  it('POSTs the file as multipart field "file", then shows the completed result', async () => {
    fetchMock.mockImplementation(async (url, init) => {
      if (url === '/api/probe-jobs') return reply(202, { jobId });
      if (url === `/api/jobs/${jobId}/status`) {
        return reply(200, {
          ...base,
          status: 'completed',
          progress: 100,
          message: 'Probe complete',
          result: {
            formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
            durationSec: 65,
            sizeBytes: 1048576,
            bitRate: null,
            streams: [{ index: 0, codecType: 'video', codecName: 'h264', width: 640, height: 360, frameRate: 25, sampleRate: null, channels: null, durationSec: null }],
          },
        });
      }
      throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
    });
    renderCard();
    expect(screen.getByRole('button', { name: 'Probe' })).toBeDisabled();
    const file = chooseAndSubmit();

    const result = await screen.findByTestId('probe-result');
    expect(result).toHaveTextContent('mov,mp4,m4a,3gp,3g2,mj2');
    expect(result).toHaveTextContent('1m 05s');
    expect(result).toHaveTextContent('1.00 MB');
    expect(result).toHaveTextContent('h264 · 640×360 · 25 fps');
    expect(screen.getByTestId('probe-status')).toHaveTextContent('Completed');
    expect(screen.getByTestId('probe-progress')).toHaveTextContent('100%');

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/probe-jobs');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    const sent = (init?.body as FormData).get('file') as File;
    expect(sent).toBeInstanceOf(File);
    expect(sent.name).toBe(file.name);
    expect(sent.size).toBe(file.size);
  });

  it("shows the error and raises a destructive 'Probe failed' toast when the job fails", async () => {
    fetchMock.mockImplementation(async (url) =>
      url === '/api/probe-jobs'
        ? reply(202, { jobId })
        : reply(200, { ...base, status: 'error', message: 'Probe failed', error: 'moov atom not found' }),
    );
    renderCard();
    chooseAndSubmit();
    expect(await screen.findByTestId('probe-error')).toHaveTextContent('moov atom not found');
    await waitFor(() => expect(getToasts()[0]).toMatchObject({ title: 'Probe failed', variant: 'destructive', description: 'moov atom not found' }));
  });

  it("raises 'Probe failed' when the upload is refused", async () => {
    fetchMock.mockResolvedValue(reply(415, { statusCode: 415, code: 'UNSUPPORTED_MEDIA', error: 'Unsupported Media Type', message: 'not media' }));
    renderCard();
    chooseAndSubmit();
    await waitFor(() => expect(getToasts()[0]).toMatchObject({ title: 'Probe failed', variant: 'destructive' }));
    expect(getToasts()[0]?.description).toBe('not media');
    expect(screen.getByRole('alert')).toHaveTextContent('not media');
  });
});

describe('pollInterval', () => {
  type StatusQuery = Query<JobStatus, Error, JobStatus, readonly unknown[]>;
  const q = (data: Partial<JobStatus> | undefined, error: unknown = null) =>
    ({ state: { data: data ? { ...base, ...data } : undefined, error } }) as unknown as StatusQuery;

  it('polls every 2 s while pending or processing, or before the first answer', () => {
    expect(pollInterval(q(undefined))).toBe(JOB_POLL_INTERVAL_MS);
    expect(pollInterval(q({ status: 'pending' }))).toBe(2000);
    expect(pollInterval(q({ status: 'processing' }))).toBe(2000);
  });

  it('stops on a final status', () => {
    for (const status of ['completed', 'error', 'cancelled'] as const) expect(pollInterval(q({ status }))).toBe(false);
  });

  it('ignores network errors and 5xx, stops on 4xx', () => {
    expect(pollInterval(q({ status: 'processing' }, new TypeError('Failed to fetch')))).toBe(2000);
    expect(pollInterval(q(undefined, new ApiError(502, 'Bad Gateway', '')))).toBe(2000);
    expect(pollInterval(q(undefined, new ApiError(404, 'Not Found', '')))).toBe(false);
  });
});
