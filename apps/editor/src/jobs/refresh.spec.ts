import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { planRefresh, refreshVideo } from './refresh';

const before = { mediaVersion: 'original', transcriptId: 't1' };

describe('planRefresh', () => {
  it('refetches the transcript and clips, and keeps the stream and waveform of an unchanged media version', () => {
    expect(planRefresh(before, { ...before })).toEqual({ transcript: true, clips: true, mediaChanged: false, dropWaveformsOtherThan: null });
  });

  it('follows a new media version and drops the waveforms of the old one', () => {
    expect(planRefresh(before, { ...before, mediaVersion: 'cut_1.mp4' })).toEqual({ transcript: true, clips: true, mediaChanged: true, dropWaveformsOtherThan: 'cut_1.mp4' });
  });

  it('skips the transcript of a video that has none', () => {
    expect(planRefresh(before, { mediaVersion: 'original', transcriptId: null }).transcript).toBe(false);
  });
});

describe('refreshVideo', () => {
  function setup(version = 'cut_1.mp4') {
    const calls: string[] = [];
    const aborted: string[] = [];
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    const fetcher = (name: string, value: () => unknown) => ({ signal }: { signal: AbortSignal }) => {
      calls.push(name);
      signal.addEventListener('abort', () => aborted.push(name));
      return new Promise((resolve) => setTimeout(() => resolve(value()), 5));
    };
    let mediaVersion = 'original';
    const observe = (queryKey: readonly unknown[], name: string, value: () => unknown) => new QueryObserver(client, { queryKey, queryFn: fetcher(name, value) }).subscribe(() => undefined);
    const stops = [
      observe(['/api/videos', 'v1'], 'video', () => ({ id: 'v1', mediaVersion, transcriptId: 't1' })),
      observe(['/api/videos', 'v1', 'transcript'], 'transcript', () => ({ words: [] })),
      observe(['/api/videos', 'v1', 'clips'], 'clips', () => []),
      observe(['/api/videos', 'v1', 'waveform', 'original', 1000], 'waveform', () => ({ peaks: [] })),
    ];
    return { client, calls, aborted, stop: () => stops.forEach((s) => s()), next: () => (mediaVersion = version) };
  }

  it('fetches the video, its transcript and clips once each, and never the waveform', async () => {
    const t = setup();
    await new Promise((r) => setTimeout(r, 20));
    t.calls.length = 0;
    t.next();
    await refreshVideo(t.client, 'v1');
    expect(t.calls.sort()).toEqual(['clips', 'transcript', 'video']);
    expect(t.aborted).toEqual([]);
    t.stop();
  });

  it('shares one refresh between calls made while it runs, without aborting anything', async () => {
    const t = setup();
    await new Promise((r) => setTimeout(r, 20));
    t.calls.length = 0;
    await Promise.all([refreshVideo(t.client, 'v1'), refreshVideo(t.client, 'v1'), refreshVideo(t.client, 'v1')]);
    expect(t.calls.sort()).toEqual(['clips', 'transcript', 'video']);
    expect(t.aborted).toEqual([]);
    t.stop();
  });

  it('joins a fetch already on its way instead of aborting it', async () => {
    const t = setup();
    await new Promise((r) => setTimeout(r, 20));
    t.calls.length = 0;
    void t.client.refetchQueries({ queryKey: ['/api/videos', 'v1'], exact: true });
    await refreshVideo(t.client, 'v1');
    expect(t.calls.filter((c) => c === 'video')).toHaveLength(1);
    expect(t.aborted).toEqual([]);
    t.stop();
  });
});
