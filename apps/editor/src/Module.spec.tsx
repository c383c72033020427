/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { clearGatewaySession, dismissToast, getToasts } from '@wordcut/ui';
import { FakeXhr } from './testing/fakeXhr';
import { VIDEO_ID, fakeLayout, makeVideo, renderEditor, reply, routeFetch } from './testing/fixtures';
import { SESSION_TOKEN_KEY, clearSessionToken } from './shared/sessionToken';

const vttStatus = (legacyUploadEnabled: boolean) => () => reply(200, { configured: true, method: 'VTT Upload', legacyUploadEnabled });
const videoRoute = { [`GET /api/videos/${VIDEO_ID}`]: () => reply(200, makeVideo({ status: 'processing', vttProgress: 10 })) };

let layout: ReturnType<typeof fakeLayout>;
beforeEach(() => {
  dismissToast();
  clearSessionToken();
  layout = fakeLayout();
});
afterEach(() => layout.restore());

const file = (name: string, type: string) => new File(['x'], name, { type });

describe('entry page', () => {
  it("without legacy upload, points to the provider's Video Details page", async () => {
    routeFetch({ 'GET /api/vtt/status': vttStatus(false) });
    renderEditor('/');
    expect(await screen.findByRole('heading', { name: 'Choose a video to start editing' })).toBeInTheDocument();
    expect(screen.getByTestId('choose-video')).toHaveTextContent('Video Details');
    expect(screen.queryByLabelText('MP4 video file')).not.toBeInTheDocument();
  });

  it('shows a retryable error when the server cannot be reached', async () => {
    const api = routeFetch({ 'GET /api/vtt/status': () => reply(502, { message: 'The gateway is unavailable' }) });
    renderEditor('/videos');
    expect(await screen.findByTestId('entry-error')).toHaveTextContent('The gateway is unavailable');
    const before = api.count('GET', '/api/vtt/status');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(api.count('GET', '/api/vtt/status')).toBe(before + 1));
  });
});

describe('legacy upload form', () => {
  let xhr: FakeXhr;
  const realXhr = global.XMLHttpRequest;
  beforeEach(() => {
    xhr = new FakeXhr();
    global.XMLHttpRequest = jest.fn(() => xhr) as unknown as typeof XMLHttpRequest;
  });
  afterEach(() => {
    global.XMLHttpRequest = realXhr;
  });

  const SESSION = { token: 'gateway.session.token', userId: 'wordcut:u1', expiresAt: new Date(Date.now() + 3600_000).toISOString() };
  let api: ReturnType<typeof routeFetch>;
  beforeEach(() => clearGatewaySession());

  async function openForm() {
    api = routeFetch({ 'GET /api/vtt/status': vttStatus(true), 'POST /api/auth/session': () => reply(201, SESSION), ...videoRoute });
    renderEditor('/');
    return {
      video: await screen.findByLabelText('MP4 video file'),
      vtt: screen.getByLabelText('VTT subtitle file'),
      submit: screen.getByRole('button', { name: 'Upload and open' }),
    };
  }

  /** Opens the form, chooses a valid MP4 and VTT, and submits them. */
  async function submitBothFiles() {
    const form = await openForm();
    fireEvent.change(form.video, { target: { files: [file('talk.mp4', 'video/mp4')] } });
    fireEvent.change(form.vtt, { target: { files: [file('talk.vtt', 'text/vtt')] } });
    fireEvent.click(form.submit);
    return form;
  }

  it('checks each file as it is chosen, with the exact texts', async () => {
    const { video, vtt } = await openForm();
    fireEvent.change(video, { target: { files: [file('talk.avi', 'video/x-msvideo')] } });
    expect(screen.getByTestId('video-file-error')).toHaveTextContent('Invalid video format: Please select an MP4 video file.');
    expect(video).toHaveAttribute('aria-invalid', 'true');
    expect(getToasts()[0]).toMatchObject({ title: 'Invalid video format', description: 'Please select an MP4 video file.', variant: 'destructive' });

    fireEvent.change(vtt, { target: { files: [file('talk.ass', 'text/x-ssa')] } });
    expect(screen.getByTestId('vtt-file-error')).toHaveTextContent('Invalid subtitle format: Please select a VTT subtitle file.');

    // MKV and WebM recordings and SubRip captions are taken too
    fireEvent.change(video, { target: { files: [file('obs.mkv', '')] } });
    expect(screen.queryByTestId('video-file-error')).not.toBeInTheDocument();
    fireEvent.change(vtt, { target: { files: [file('talk.srt', 'application/x-subrip')] } });
    expect(screen.queryByTestId('vtt-file-error')).not.toBeInTheDocument();
  });

  it('needs both files', async () => {
    const { video, submit } = await openForm();
    fireEvent.change(video, { target: { files: [file('talk.mp4', 'video/mp4')] } });
    fireEvent.click(submit);
    expect(screen.getByTestId('upload-form-error')).toHaveTextContent('Missing files: Please select both MP4 video and VTT subtitle files.');
    expect(getToasts()[0]?.title).toBe('Missing files');
    expect(global.XMLHttpRequest).not.toHaveBeenCalled();
  });

  it('uploads with progress, then opens the new video', async () => {
    await submitBothFiles();
    await waitFor(() => expect(xhr.url).toBe('/api/videos/upload'));
    expect(xhr.withCredentials).toBe(true);
    // the uploader owns the video: the upload carries the session the form started
    expect(api.count('POST', '/api/auth/session')).toBe(1);
    expect(xhr.headers['authorization']).toBe(`Bearer ${SESSION.token}`);
    act(() => xhr.progress(42, 100));
    expect(screen.getByTestId('upload-percent')).toHaveTextContent('42%');
    expect(screen.getByRole('button', { name: 'Cancel upload' })).toBeInTheDocument();
    act(() => xhr.respond(201, JSON.stringify(makeVideo({ status: 'uploaded', vttProgress: 0 }))));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/editor/${VIDEO_ID}`));
    expect(await screen.findByTestId('vtt-processing')).toBeInTheDocument();
  });

  it("on a refused upload: the 'Upload failed' toast and the server's message under the form", async () => {
    await submitBothFiles();
    await waitFor(() => expect(xhr.url).not.toBeNull());
    act(() =>
      xhr.respond(422, JSON.stringify({ statusCode: 422, code: 'VALIDATION_FAILED', error: 'Unprocessable Entity', message: 'The VTT file has no cues.' })),
    );
    expect(await screen.findByTestId('upload-error')).toHaveTextContent('The VTT file has no cues.');
    expect(getToasts()[0]).toMatchObject({
      title: 'Upload failed',
      description: 'Please try again with valid MP4 video and VTT subtitle files.',
      variant: 'destructive',
    });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('reuses a stored session, and says why when no session can be started', async () => {
    const { submit } = await submitBothFiles();
    await waitFor(() => expect(xhr.url).toBe('/api/videos/upload'));
    act(() => xhr.respond(500, JSON.stringify({ message: 'boom' })));
    expect(await screen.findByTestId('upload-error')).toHaveTextContent('boom');
    xhr = new FakeXhr();
    fireEvent.click(submit);
    await waitFor(() => expect(xhr.url).toBe('/api/videos/upload'));
    expect(api.count('POST', '/api/auth/session')).toBe(1);
    act(() => xhr.respond(500, JSON.stringify({ message: 'boom again' })));
    expect(await screen.findByText('boom again')).toBeInTheDocument();

    clearGatewaySession();
    routeFetch({ 'GET /api/vtt/status': vttStatus(true), 'POST /api/auth/session': () => reply(403, { message: 'Uploading is disabled here: open your video from the provider instead.' }) });
    xhr = new FakeXhr();
    fireEvent.click(submit);
    expect(await screen.findByTestId('upload-error')).toHaveTextContent('Uploading is disabled here');
    expect(xhr.url).toBeNull();
  });

  it('cancels an upload without an error toast', async () => {
    await submitBothFiles();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel upload' }));
    expect(await screen.findByTestId('upload-cancelled')).toHaveTextContent('Upload cancelled.');
    expect(xhr.aborted).toBe(true);
    expect(getToasts()).toHaveLength(0);
  });
});

describe('entry by provider token', () => {
  it('stores the token, opens the session once and lands on the video without the query string', async () => {
    let answer!: (r: Response) => void;
    const api = routeFetch({
      'POST /api/provider/sessions': () => new Promise<Response>((resolve) => (answer = resolve)),
      ...videoRoute,
    });
    renderEditor('/?token=jwt.abc.def');
    expect(await screen.findByRole('heading', { name: 'Loading your video...' })).toBeInTheDocument();
    expect(sessionStorage.getItem(SESSION_TOKEN_KEY)).toBe('jwt.abc.def');
    await waitFor(() => expect(api.count('POST', '/api/provider/sessions')).toBe(1));
    const headers = new Headers(api.calls.find((c) => c.method === 'POST')!.init?.headers);
    expect(headers.get('authorization')).toBe('Bearer jwt.abc.def');
    expect(api.calls[0]!.init?.credentials).toBe('include');

    await act(async () => answer(reply(201, { success: true, video: { id: VIDEO_ID, title: 'Demo' }, existing: false })));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(new RegExp(`^/editor/${VIDEO_ID}$`)));
    expect(await screen.findByTestId('vtt-processing')).toBeInTheDocument();
    expect(api.count('POST', '/api/provider/sessions')).toBe(1); // StrictMode did not POST twice
  });

  it('on failure: a toast, an error card, the token gone from the address, and a retry', async () => {
    let fail = true;
    const api = routeFetch({
      'POST /api/provider/sessions': () =>
        fail
          ? reply(401, { statusCode: 401, code: 'UNAUTHORIZED', error: 'Unauthorized', message: 'The session token has expired.' })
          : reply(200, { success: true, video: { id: VIDEO_ID, title: 'Demo' }, existing: true }),
      ...videoRoute,
    });
    renderEditor('/editor?token=old');
    expect(await screen.findByTestId('session-error')).toHaveTextContent('Failed to load video from provider');
    expect(screen.getByTestId('session-error')).toHaveTextContent('The session token has expired.');
    expect(getToasts()[0]).toMatchObject({ title: 'Failed to load video from provider', variant: 'destructive' });
    // the router applies a navigation in a transition, a render after the error card
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/editor$/));

    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/editor/${VIDEO_ID}`));
    expect(api.count('POST', '/api/provider/sessions')).toBe(2);
  });
});
