import { VIDEO_POLL_INTERVAL_MS, captionsTrackUrl, editorRoute, isVideoPending, streamUrl, videoKeys, videoPollInterval } from './api';

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

describe('captionsTrackUrl', () => {
  it('keeps the signature and follows the media version', () => {
    const signed = `/api/videos/${id}/subtitles?st=abc.def.ghi`;
    expect(captionsTrackUrl({ subtitlesUrl: signed, mediaVersion: 'original' })).toBe(`${signed}&v=original`);
    expect(captionsTrackUrl({ subtitlesUrl: signed, mediaVersion: 'cut 1.mp4' })).toBe(`${signed}&v=cut%201.mp4`);
  });
  it('is null without a subtitles URL', () => {
    expect(captionsTrackUrl({ mediaVersion: 'original' })).toBeNull();
  });
});

it('builds the routes and the keys', () => {
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
