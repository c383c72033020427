/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Video } from '@wordcut/contracts';
import { dismissToast, getToasts } from '@wordcut/ui';
import { VIDEO_ID, fakeLayout, makeTranscript, makeVideo, renderEditor, reply, routeFetch } from '../testing/fixtures';

const videoPath = `/api/videos/${VIDEO_ID}`;
const vttStatus = () => reply(200, { configured: true, method: 'VTT Upload', legacyUploadEnabled: true });
const waveform = () => reply(200, { peaks: [0.2, 0.8, 0.5, 0.1], duration: 30, cached: true });

function routes(video: () => Video | Response, extra: Record<string, () => Response | Promise<Response>> = {}) {
  return routeFetch({
    'GET /api/vtt/status': vttStatus,
    [`GET ${videoPath}`]: () => {
      const v = video();
      return v instanceof Object && 'id' in v ? reply(200, v) : (v as Response);
    },
    [`GET ${videoPath}/transcript`]: () => reply(200, makeTranscript()),
    [`GET ${videoPath}/waveform`]: waveform,
    ...extra,
  });
}

let layout: ReturnType<typeof fakeLayout>;
beforeEach(() => {
  dismissToast();
  layout = fakeLayout();
});
afterEach(() => {
  layout.restore();
  jest.useRealTimers();
});

/** Timers that run in real time, and can jump ahead to show that nothing happens meanwhile. */
const jumpingTimers = () => jest.useFakeTimers({ advanceTimers: true, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
const jumpAhead = (ms: number) => act(() => jest.advanceTimersByTimeAsync(ms));

describe('video status', () => {
  it('shows the processing card and polls until completed, then loads the transcript', async () => {
    jumpingTimers();
    let status: Video['status'] = 'processing';
    const api = routes(() => makeVideo({ status, vttProgress: status === 'processing' ? 45 : 100 }));
    renderEditor(`/editor/${VIDEO_ID}`);
    expect(await screen.findByTestId('vtt-progress')).toHaveTextContent('45%');
    expect(screen.getByTestId('transcript-processing')).toHaveTextContent('Processing transcript...');
    expect(screen.getByTestId('transcript-processing')).toHaveTextContent('This may take a few minutes');
    expect(api.count('GET', `${videoPath}/transcript`)).toBe(0); // only once completed
    // a jump of one poll interval polls again while processing (so the jump below can show a stop)
    const processingPolls = api.count('GET', videoPath);
    await jumpAhead(2100);
    await waitFor(() => expect(api.count('GET', videoPath)).toBeGreaterThan(processingPolls));

    status = 'completed';
    await waitFor(() => expect(screen.queryByTestId('vtt-processing')).not.toBeInTheDocument(), { timeout: 6000 });
    expect(await screen.findAllByTestId('transcript-word')).toHaveLength(5);
    const polls = api.count('GET', videoPath);
    await jumpAhead(2300);
    expect(api.count('GET', videoPath)).toBe(polls); // polling stopped
  }, 15_000);

  it("on failure with 'VTT Upload': the error, the advice, and no retry button", async () => {
    routes(() => makeVideo({ status: 'failed', vttError: 'Line 3: bad timestamp', vttMethod: 'VTT Upload' }));
    renderEditor(`/videos/${VIDEO_ID}`);
    const card = await screen.findByTestId('vtt-failed');
    expect(card).toHaveTextContent('Line 3: bad timestamp');
    expect(card).toHaveTextContent(
      'Check your VTT file format and try again. Ensure the VTT file has proper WEBVTT format with valid timestamps.',
    );
    expect(card).toHaveTextContent('upload a new video with a corrected VTT file');
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByTestId('transcript-empty')).toHaveTextContent('No transcript available');
    expect(screen.getByTestId('transcript-empty')).toHaveTextContent('Upload a video to generate a transcript');
  });

  it('retries transcription for other methods; a failed retry raises the toast', async () => {
    let retryOk = false;
    const api = routes(() => makeVideo({ status: 'failed', vttError: 'Timed out', vttMethod: 'Speech recognition' }), {
      [`POST ${videoPath}/transcribe`]: () =>
        retryOk ? reply(202, makeVideo({ status: 'processing', vttProgress: 5, vttMethod: 'Speech recognition' })) : reply(500, { message: 'boom' }),
    });
    renderEditor(`/video/${VIDEO_ID}`);
    const card = await screen.findByTestId('vtt-failed');
    fireEvent.click(within(card).getByRole('button', { name: 'Retry transcription' }));
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({ title: 'Retry failed', description: 'Unable to restart transcription. Please try again.', variant: 'destructive' }),
    );
    retryOk = true;
    fireEvent.click(within(card).getByRole('button', { name: 'Retry transcription' }));
    expect(await screen.findByTestId('vtt-progress')).toHaveTextContent('5%');
    expect(api.count('POST', `${videoPath}/transcribe`)).toBe(2);
  });

  it('shows the connection error card after 3 retries, and Retry Connection recovers', async () => {
    let up = false;
    const api = routes(() => (up ? makeVideo() : reply(503, { message: 'down' })));
    renderEditor(`/editor/${VIDEO_ID}`);
    const card = await screen.findByTestId('connection-error', {}, { timeout: 8000 });
    expect(card).toHaveTextContent('Connection Error');
    expect(card).toHaveTextContent('Unable to load video data. This could be a temporary network issue.');
    expect(within(card).getByRole('button', { name: 'Reload Page' })).toBeInTheDocument();
    expect(card.querySelector('details')).toHaveTextContent('503: {"message":"down"}');
    expect(api.count('GET', videoPath)).toBeGreaterThanOrEqual(4); // first try + 3 retries
    up = true;
    fireEvent.click(within(card).getByRole('button', { name: 'Retry Connection' }));
    expect(await screen.findByTestId('video-title')).toHaveTextContent('Demo talk');
  }, 15_000);

  it("says a video that is missing (or someone else's) is not found, without retrying", async () => {
    jumpingTimers();
    const api = routes(() => reply(404, { statusCode: 404, code: 'NOT_FOUND', message: `There is no video with id '${VIDEO_ID}'.` }));
    renderEditor(`/editor/${VIDEO_ID}`);
    const card = await screen.findByTestId('video-unavailable');
    expect(card).toHaveTextContent('Video not found');
    expect(within(card).getByRole('link', { name: 'Upload a video' })).toHaveAttribute('href', '/');
    const asked = api.count('GET', videoPath);
    // retries come 1 s apart: none came
    await jumpAhead(1500);
    expect(api.count('GET', videoPath)).toBe(asked);
    expect(screen.queryByTestId('connection-error')).not.toBeInTheDocument();
  });

  it('says the session has ended on 401', async () => {
    routes(() => reply(401, { statusCode: 401, code: 'UNAUTHORIZED', message: 'Authentication required' }));
    renderEditor(`/editor/${VIDEO_ID}`);
    expect(await screen.findByTestId('video-unavailable')).toHaveTextContent('Session ended');
  });
});

describe('completed video', () => {
  async function open(patch: Partial<Video> = {}) {
    const api = routes(() => makeVideo(patch));
    renderEditor(`/editor/${VIDEO_ID}`);
    await screen.findAllByTestId('transcript-word');
    return api;
  }

  it('shows the title (or the original name), the player on the stream URL and the footer', async () => {
    await open({ title: '', lastProcessedAt: '2025-05-05T05:05:05.000Z' });
    expect(screen.getByTestId('video-title')).toHaveTextContent('demo.mp4');
    const player = screen.getByTestId('video-player');
    expect(player).toHaveAttribute('src', `/api/videos/${VIDEO_ID}/stream/processed?t=2025-05-05T05%3A05%3A05.000Z`);
    // media-chrome's controls drive the page's own <video>
    expect(player.closest('media-controller')).not.toBeNull();
    expect(document.querySelector('media-play-button')).not.toBeNull();
    expect(document.querySelector('media-time-range')).not.toBeNull();
    expect(player).toHaveAttribute('playsinline');
    const footer = screen.getByTestId('editor-footer');
    expect(footer).toHaveTextContent('Auto-save enabled');
    expect(footer).toHaveTextContent('Last saved:');
    await waitFor(() => expect(screen.getByTestId('footer-vtt-status')).toHaveTextContent('VTT: Ready'));
    expect(screen.getByTestId('footer-duration')).toHaveTextContent('Duration: 30 s');
    const zoom = screen.getByTestId('footer-zoom');
    const seen = [zoom.textContent];
    for (let i = 0; i < 3; i += 1) {
      fireEvent.click(zoom);
      seen.push(zoom.textContent);
    }
    expect(seen).toEqual(['Zoom 100%', 'Zoom 200%', 'Zoom 400%', 'Zoom 100%']);
  });

  it('lists paragraphs with timestamps and words coloured by confidence', async () => {
    await open();
    const paragraphs = screen.getAllByTestId('transcript-paragraph');
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0]).toHaveTextContent('0:00Hello world');
    expect(paragraphs[1]).toHaveTextContent('0:02this is WordCut');
    const words = screen.getAllByTestId('transcript-word');
    expect(words.map((w) => w.getAttribute('data-confidence'))).toEqual(['good', 'medium', 'low', 'good', 'good']);
    expect(screen.getByRole('group', { name: 'Transcript words' })).toHaveAttribute('dir', 'ltr');
  });

  it('is right to left for an RTL language', async () => {
    await open({ languageCode: 'ar-EG' });
    expect(screen.getByRole('group', { name: 'Transcript words' })).toHaveAttribute('dir', 'rtl');
  });

  it('seeks 300 ms after a single click, not on a double click', async () => {
    jumpingTimers();
    await open();
    const player = screen.getByTestId('video-player') as HTMLVideoElement;
    const word = screen.getByText('WordCut');
    fireEvent.click(word, { detail: 1 });
    expect(player.currentTime).toBe(0);
    await waitFor(() => expect(player.currentTime).toBe(2.7));

    player.currentTime = 0;
    fireEvent.click(screen.getByText('world'), { detail: 1 });
    fireEvent.click(screen.getByText('world'), { detail: 2 });
    await jumpAhead(400);
    expect(player.currentTime).toBe(0);
  });

  it('reaches words with Tab and arrows, and Enter seeks', async () => {
    await open();
    const player = screen.getByTestId('video-player') as HTMLVideoElement;
    const words = screen.getAllByTestId('transcript-word');
    expect(words.map((w) => w.tabIndex)).toEqual([0, -1, -1, -1, -1]);
    words[0]!.focus();
    fireEvent.keyDown(words[0]!, { key: 'ArrowRight' });
    await waitFor(() => expect(screen.getByText('world')).toHaveFocus());
    fireEvent.keyDown(screen.getByText('world'), { key: 'ArrowDown' });
    await waitFor(() => expect(screen.getByText('this')).toHaveFocus());
    expect(screen.getByText('this')).toHaveAttribute('tabindex', '0');
    expect(screen.getByText('Hello')).toHaveAttribute('tabindex', '-1');
    fireEvent.keyDown(screen.getByText('this'), { key: 'Enter' });
    expect(player.currentTime).toBe(2);
  });

  it('highlights the word being played', async () => {
    await open();
    const player = screen.getByTestId('video-player') as HTMLVideoElement;
    player.currentTime = 1.2;
    act(() => {
      fireEvent(player, new Event('seeked'));
    });
    await waitFor(() => expect(screen.getByText('world')).toHaveAttribute('aria-current', 'true'));
    expect(screen.getByText('world')).toHaveClass('wc-word--active');
    expect(screen.getByText('Hello')).not.toHaveAttribute('aria-current');
  });

  it('draws the waveform and seeks where the timeline is clicked', async () => {
    await open();
    const canvas = screen.getByTestId('waveform-canvas');
    await waitFor(() => expect(canvas).toHaveAttribute('data-synthetic', 'false'));
    await waitFor(() => expect(layout.rects.length).toBeGreaterThan(0));
    const player = screen.getByTestId('video-player') as HTMLVideoElement;
    const track = screen.getByRole('slider', { name: 'Timeline' });
    track.getBoundingClientRect = () => ({ left: 100, width: 800, top: 0, height: 88, right: 900, bottom: 88, x: 100, y: 0, toJSON: () => ({}) });
    fireEvent.click(track, { clientX: 300 });
    expect(player.currentTime).toBe(7.5);
    expect(screen.getByTestId('playhead').style.transform).toBe('translateX(200px)');
    fireEvent.keyDown(track, { key: 'ArrowRight' });
    expect(player.currentTime).toBe(12.5);
  });

  it('uses a synthetic waveform when the waveform call fails', async () => {
    routes(() => makeVideo(), { [`GET ${videoPath}/waveform`]: () => reply(500, { message: 'no peaks' }) });
    renderEditor(`/editor/${VIDEO_ID}`);
    const canvas = await screen.findByTestId('waveform-canvas');
    await waitFor(() => expect(canvas).toHaveAttribute('data-synthetic', 'true'));
    expect(canvas).toHaveAttribute('data-peaks', '1000');
  });

  it('says so when the video has no audio', async () => {
    await open({ hasAudio: false });
    expect(screen.getByTestId('no-audio')).toHaveTextContent('This video has no audio track.');
    expect(screen.queryByTestId('waveform-canvas')).not.toBeInTheDocument();
  });
});
