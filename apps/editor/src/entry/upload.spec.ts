/** @jest-environment jsdom */
import { UPLOAD_VIDEO_FIELD as CONTRACT_VIDEO_FIELD, UPLOAD_VTT_FIELD as CONTRACT_VTT_FIELD } from '@wordcut/contracts';
import { UPLOAD_VIDEO_FIELD, UPLOAD_VTT_FIELD, UploadError, progressOf, uploadErrorMessage, uploadVideo } from './upload';
import { FakeXhr } from '../testing/fakeXhr';

const mp4 = () => new File(['video-bytes'], 'demo.mp4', { type: 'video/mp4' });
const vtt = () => new File(['WEBVTT\n'], 'demo.vtt', { type: 'text/vtt' });

it('uses the multipart field names of the contracts', () => {
  expect(UPLOAD_VIDEO_FIELD).toBe(CONTRACT_VIDEO_FIELD);
  expect(UPLOAD_VTT_FIELD).toBe(CONTRACT_VTT_FIELD);
});

it('computes whole percentages', () => {
  expect(progressOf(0, 200).percent).toBe(0);
  expect(progressOf(99, 200).percent).toBe(49);
  expect(progressOf(200, 200).percent).toBe(100);
  expect(progressOf(10, 0).percent).toBe(0);
});

it("shows the server's message, else '<status>: <body>'", () => {
  expect(uploadErrorMessage(400, 'Bad Request', JSON.stringify({ statusCode: 400, code: 'VALIDATION_FAILED', error: 'Bad Request', message: 'The VTT file has no cues.' }))).toBe(
    'The VTT file has no cues.',
  );
  expect(uploadErrorMessage(400, 'Bad Request', JSON.stringify({ message: ['a', 'b'] }))).toBe('a; b');
  expect(uploadErrorMessage(502, 'Bad Gateway', 'upstream down')).toBe('502: upstream down');
  expect(uploadErrorMessage(500, 'Internal Server Error', '')).toBe('500: Internal Server Error');
});

describe('uploadVideo', () => {
  it('POSTs both files with credentials, reports progress and resolves with the video', async () => {
    const xhr = new FakeXhr();
    const progress: number[] = [];
    const done = uploadVideo(mp4(), vtt(), { createRequest: () => xhr.asXhr(), onProgress: (p) => progress.push(p.percent) });
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/videos/upload');
    expect(xhr.withCredentials).toBe(true);
    const body = xhr.body as FormData;
    expect((body.get('video') as File).name).toBe('demo.mp4');
    expect((body.get('vtt') as File).name).toBe('demo.vtt');
    xhr.progress(25, 100);
    xhr.progress(100, 100);
    xhr.respond(201, JSON.stringify({ id: 'v1', status: 'uploaded' }));
    await expect(done).resolves.toMatchObject({ id: 'v1' });
    expect(progress).toEqual([25, 100]);
  });

  it('rejects with the server message on an error answer', async () => {
    const xhr = new FakeXhr();
    const done = uploadVideo(mp4(), vtt(), { createRequest: () => xhr.asXhr() });
    xhr.respond(415, JSON.stringify({ statusCode: 415, code: 'UNSUPPORTED_MEDIA', error: 'Unsupported Media Type', message: 'not an MP4' }));
    await expect(done).rejects.toMatchObject({ name: 'UploadError', status: 415, message: 'not an MP4', cancelled: false });
  });

  it('rejects a 2xx without a video', async () => {
    const xhr = new FakeXhr();
    const done = uploadVideo(mp4(), vtt(), { createRequest: () => xhr.asXhr() });
    xhr.respond(201, 'ok');
    await expect(done).rejects.toThrow('did not answer with a video');
  });

  it('cancels through the signal, and reports network errors', async () => {
    const xhr = new FakeXhr();
    const controller = new AbortController();
    const cancelled = uploadVideo(mp4(), vtt(), { createRequest: () => xhr.asXhr(), signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ cancelled: true, message: 'Upload cancelled.' });
    expect(xhr.aborted).toBe(true);

    const xhr2 = new FakeXhr();
    const lost = uploadVideo(mp4(), vtt(), { createRequest: () => xhr2.asXhr() });
    xhr2.fail();
    const error = await lost.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect((error as UploadError).status).toBe(0);
  });

  it('does not start when the signal is already aborted', async () => {
    const xhr = new FakeXhr();
    const controller = new AbortController();
    controller.abort();
    await expect(uploadVideo(mp4(), vtt(), { createRequest: () => xhr.asXhr(), signal: controller.signal })).rejects.toMatchObject({ cancelled: true });
    expect(xhr.method).toBeNull();
  });
});
