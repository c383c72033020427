import { StorageKeys, type MediaIngestCommand } from '@wordcut/contracts';
import { FfmpegError, FfmpegTimeoutError, MediaProbeError } from '@wordcut/ffmpeg';
import { FetchFailedError, UnsafeUrlError } from '@wordcut/provider';
import { ObjectNotFoundError } from '@wordcut/storage';
import { TranscriptBuildError } from '@wordcut/transcript';
import { classifyIngestError, IngestFailure, IngestMessages, mediaRefusal } from './ingest-failure';
import { buildIngestTranscript } from './ingest-transcript';
import { ingestKeys } from './ingest.worker';

const details = (over: Partial<FfmpegError['details']> = {}): FfmpegError['details'] => ({
  binary: 'ffmpeg', args: [], exitCode: 1, signal: null, stderrTail: '', durationMs: 1, ...over,
});

describe('mediaRefusal', () => {
  it('names what was refused, with a message for people (the gateway answers 415 with it)', () => {
    expect(mediaRefusal(new MediaProbeError('NOT_MP4', 'not an MP4/MOV file', 'x'))).toEqual({ code: 'NOT_MP4', message: 'The file is not a video in MP4 or MOV format.' });
    expect(mediaRefusal(new MediaProbeError('EXTERNAL_REFERENCE', 'url', 'x'))).toEqual({
      code: 'EXTERNAL_REFERENCE',
      message: 'The video refers to data outside the file. Please upload a self-contained MP4 or MOV file.',
    });
    for (const code of ['NOT_MEDIA', 'NO_AUDIO_VIDEO'] as const) {
      expect(mediaRefusal(new MediaProbeError(code, 'r', 'x'))).toEqual({ code: 'NOT_MEDIA', message: 'The file is not a playable video.' });
    }
  });
});

describe('classifyIngestError', () => {
  it('failures a retry cannot fix become IngestFailures with messages for people', () => {
    expect(classifyIngestError(new TranscriptBuildError('VTT_INVALID', 'The subtitle file does not start with WEBVTT.'))).toMatchObject({
      code: 'VTT_INVALID',
      message: 'The subtitle file does not start with WEBVTT.',
    });
    expect(classifyIngestError(new UnsafeUrlError('PRIVATE_ADDRESS', 'no private'))).toMatchObject({ code: 'UNSAFE_URL', message: 'no private' });
    expect(classifyIngestError(new FetchFailedError('HTTP_ERROR', 'answered HTTP 404.', 404))).toMatchObject({ code: 'IMPORT_FAILED' });
    expect(classifyIngestError(new FetchFailedError('HTTP_ERROR', 'answered HTTP 403.', 403))).toMatchObject({ code: 'IMPORT_FAILED' });
    expect(classifyIngestError(new FetchFailedError('TOO_LARGE', 'too large'))).toMatchObject({ code: 'TOO_LARGE' });
    expect(classifyIngestError(new MediaProbeError('NOT_MEDIA', 'Invalid data', 'x'))).toMatchObject({ code: 'NOT_MEDIA', message: IngestMessages.NOT_MEDIA });
    expect(classifyIngestError(new MediaProbeError('NO_AUDIO_VIDEO', 'no streams', 'x'))).toMatchObject({ code: 'NOT_MEDIA' });
    expect(classifyIngestError(new MediaProbeError('NOT_MP4', 'no ISO box', 'x'))).toMatchObject({ code: 'NOT_MP4', message: IngestMessages.NOT_MP4 });
    expect(classifyIngestError(new MediaProbeError('EXTERNAL_REFERENCE', 'url', 'x'))).toMatchObject({ code: 'EXTERNAL_REFERENCE', message: IngestMessages.EXTERNAL_REFERENCE });
    expect(classifyIngestError(new ObjectNotFoundError('b', 'k'))).toMatchObject({ code: 'NOT_FOUND' });
    expect(classifyIngestError(new FfmpegError('ffmpeg exited with code 1', details({ stderrTail: 'Invalid data found' })))).toMatchObject({ code: 'PROXY_FAILED' });
    const own = new IngestFailure('NO_VIDEO', IngestMessages.NO_VIDEO);
    expect(classifyIngestError(own)).toBe(own);
  });

  it('transient failures (network, 5xx, 408/429, S3 reads, timeouts, kills) are retried', () => {
    expect(classifyIngestError(new FetchFailedError('HTTP_ERROR', 'answered HTTP 503.', 503))).toBeNull();
    expect(classifyIngestError(new FetchFailedError('HTTP_ERROR', 'answered HTTP 429.', 429))).toBeNull();
    expect(classifyIngestError(new FetchFailedError('HTTP_ERROR', 'answered HTTP 408.', 408))).toBeNull();
    expect(classifyIngestError(new FetchFailedError('TIMEOUT', 'stalled'))).toBeNull();
    expect(classifyIngestError(new FetchFailedError('NETWORK', 'reset'))).toBeNull();
    expect(classifyIngestError(new MediaProbeError('UNREADABLE', 'Server returned 5XX', 'x'))).toBeNull();
    expect(classifyIngestError(new FfmpegTimeoutError(1000, details({ exitCode: null, signal: 'SIGKILL' })))).toBeNull();
    expect(classifyIngestError(new FfmpegError('killed', details({ exitCode: null, signal: 'SIGKILL' })))).toBeNull();
    expect(classifyIngestError(new FfmpegError('read', details({ stderrTail: 'https://s3/x: Input/output error' })))).toBeNull();
    const enoent = Object.assign(new Error('spawn ffmpeg ENOENT'), { code: 'ENOENT' });
    expect(classifyIngestError(new FfmpegError('cannot start ffmpeg', details({ exitCode: -2 }), { cause: enoent }))).toBeNull();
    expect(classifyIngestError(new Error('S3 is down'))).toBeNull();
  });
});

describe('buildIngestTranscript', () => {
  const vtt = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello world.\n';
  const words = JSON.stringify({ languageCode: 'de', words: [{ text: 'Hallo', start: 0.5, end: 0.9 }, { text: 'Welt.', start: 1, end: 1.4 }] });

  it('prefers the word-by-word file over the VTT', () => {
    const t = buildIngestTranscript({ vtt, wordByWord: words });
    expect(t.languageCode).toBe('de');
    expect(t.words.map((w) => [w.text, w.start])).toEqual([['Hallo', 0.5], ['Welt.', 1]]);
  });

  it('builds from the VTT alone, with the language hint', () => {
    const t = buildIngestTranscript({ vtt }, 'fr');
    expect(t.languageCode).toBe('fr');
    expect(t.words.map((w) => w.text)).toEqual(['Hello', 'world.']);
  });

  it('bad or missing captions fail with messages for people', () => {
    expect(() => buildIngestTranscript({ wordByWord: '{not json' })).toThrow(new TranscriptBuildError('WORDS_INVALID', 'The word-by-word file is not valid JSON.'));
    expect(() => buildIngestTranscript({ wordByWord: '{"words": 3}' })).toThrow(TranscriptBuildError);
    expect(() => buildIngestTranscript({ vtt: 'just text' })).toThrow(TranscriptBuildError);
    expect(() => buildIngestTranscript({})).toThrow(new IngestFailure('NO_CAPTIONS', IngestMessages.NO_CAPTIONS));
  });
});

describe('ingestKeys', () => {
  const base = { jobId: 'ingest_1', videoId: '8f0c2b5e-4a1d-4c3e-9b7a-1d2e3f4a5b6c', requestedAt: '2025-01-01T00:00:00Z' };

  it('uploads keep their keys; provider files land under the video, named by the job', () => {
    const upload: MediaIngestCommand = { ...base, source: { kind: 'upload', videoKey: 'videos/v/original/a.mp4', vttKey: 'videos/v/original/a.vtt' } };
    expect(ingestKeys(upload)).toEqual({
      videoKey: 'videos/v/original/a.mp4',
      vttKey: 'videos/v/original/a.vtt',
      wordByWordKey: null,
      transcriptKey: StorageKeys.ingestTranscript(base.videoId, base.jobId),
      proxyKey: StorageKeys.proxy(base.videoId, base.jobId),
      masterKey: StorageKeys.masterVideo(base.videoId, base.jobId),
      waveformKey: StorageKeys.waveform(base.videoId, 'original'),
      energyKey: StorageKeys.energy(base.videoId, 'original'),
      frameGridKey: StorageKeys.frameGrid(base.videoId),
      transcribedWordsKey: StorageKeys.transcribedWords(base.videoId, base.jobId),
    });
    const provider: MediaIngestCommand = { ...base, source: { kind: 'provider', videoUrl: 'https://p.example/v.mp4', wordBywordUrl: 'https://p.example/w.json' } };
    expect(ingestKeys(provider)).toMatchObject({
      videoKey: StorageKeys.originalVideo(base.videoId, base.jobId),
      vttKey: null,
      wordByWordKey: StorageKeys.originalWordByWord(base.videoId, base.jobId),
    });
  });
});
