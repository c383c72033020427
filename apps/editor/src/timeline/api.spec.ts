import { fetchWaveform, waveformUrl } from './api';
import { syntheticPeaks } from './waveform';

const id = '0b6f8a52-5c1e-4d3a-9a56-6f0f3d1c2b7e';

it('builds the waveform URL', () => {
  expect(waveformUrl({ id, mediaVersion: 'cut 2.mp4' }, 1000)).toBe(`/api/videos/${id}/waveform?v=cut%202.mp4&points=1000`);
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
