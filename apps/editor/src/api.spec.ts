import { VIDEO_POLL_INTERVAL_MS, editorRoute, fetchWaveform, isVideoPending, streamUrl, videoKeys, videoPollInterval, waveformUrl } from './api';
import { syntheticPeaks } from './waveform';

const id = '0b6f8a52-5c1e-4d3a-9a56-6f0f3d1c2b7e';

describe('streamUrl', () => {
  const base = { id, lastProcessedAt: null, createdAt: '2025-01-02T03:04:05.000Z', filename: 'talk.mp4' };
  it('is cache-busted by the last processing time first', () => {
    expect(streamUrl({ ...base, lastProcessedAt: '2025-02-01T00:00:00.000Z' })).toBe(
      `/api/videos/${id}/stream/processed?t=2025-02-01T00%3A00%3A00.000Z`,
    );
  });
  it('falls back to the creation time, then the file name', () => {
    expect(streamUrl(base)).toBe(`/api/videos/${id}/stream/processed?t=2025-01-02T03%3A04%3A05.000Z`);
    expect(streamUrl({ ...base, createdAt: '' })).toBe(`/api/videos/${id}/stream/processed?t=talk.mp4`);
  });
  it("keeps the server's signature on the URL it signed for the owner", () => {
    const signed = `/api/videos/${id}/stream/processed?st=abc.def.ghi`;
    expect(streamUrl({ ...base, streamUrl: signed })).toBe(`${signed}&t=2025-01-02T03%3A04%3A05.000Z`);
  });
});

it('builds the waveform URL, the routes and the keys', () => {
  expect(waveformUrl({ id, mediaVersion: 'cut 2.mp4' }, 1000)).toBe(`/api/videos/${id}/waveform?v=cut%202.mp4&points=1000`);
  expect(editorRoute('/', id)).toBe(`/editor/${id}`);
  expect(editorRoute('/app/', 'a b')).toBe('/app/editor/a%20b');
  // the default fetcher joins the key parts with '/'
  expect(videoKeys.video(id).join('/')).toBe(`/api/videos/${id}`);
  expect(videoKeys.transcript(id).join('/')).toBe(`/api/videos/${id}/transcript`);
  expect(videoKeys.vttStatus.join('/')).toBe('/api/vtt/status');
});

it('polls every 2 s only while uploaded or processing', () => {
  expect(videoPollInterval({ status: 'uploaded' })).toBe(VIDEO_POLL_INTERVAL_MS);
  expect(videoPollInterval({ status: 'processing' })).toBe(2000);
  expect(videoPollInterval({ status: 'completed' })).toBe(false);
  expect(videoPollInterval({ status: 'failed' })).toBe(false);
  expect(videoPollInterval(undefined)).toBe(false);
  expect(isVideoPending({ status: 'processing' })).toBe(true);
});

describe('fetchWaveform', () => {
  const video = { id, mediaVersion: 'original', duration: 30 };
  const fetchMock = jest.fn<Promise<Response>, [string, RequestInit?]>();
  const reply = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    return { ok: status < 300, status, statusText: '', text: async () => text } as unknown as Response;
  };
  beforeEach(() => {
    fetchMock.mockReset();
    global.fetch = fetchMock as unknown as typeof fetch;
  });

  it('returns the server peaks', async () => {
    fetchMock.mockResolvedValue(reply(200, { peaks: [0.1, 0.5], duration: 29.5, cached: true }));
    await expect(fetchWaveform(video, 1000)).resolves.toEqual({ peaks: [0.1, 0.5], duration: 29.5, synthetic: false });
    expect(fetchMock.mock.calls[0]![0]).toBe(`/api/videos/${id}/waveform?v=original&points=1000`);
    expect(fetchMock.mock.calls[0]![1]?.credentials).toBe('include');
  });

  it('uses 1000 synthetic peaks when the call fails or has no peaks', async () => {
    fetchMock.mockResolvedValueOnce(reply(500, { message: 'boom' }));
    const failed = await fetchWaveform(video, 1000);
    expect(failed).toEqual({ peaks: syntheticPeaks(1000), duration: 30, synthetic: true });
    fetchMock.mockResolvedValueOnce(reply(200, { peaks: [], duration: 30, cached: false }));
    expect((await fetchWaveform(video, 2000)).synthetic).toBe(true);
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect((await fetchWaveform(video, 1000)).peaks).toHaveLength(1000);
  });
});
