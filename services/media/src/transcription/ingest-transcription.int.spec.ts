/**
 * The ingest's transcription against the real pieces: ffmpeg cuts the speech audio, the provider
 * sandbox's stand-in answers (it knows the talk's script), s3rver keeps the heard words.
 */
import { FfmpegMediaTools, mediaInput } from '@wordcut/ffmpeg';
import { readObjectBytes, S3ObjectStorage, startLocalS3, type LocalS3 } from '@wordcut/storage';
import { buildTranscriptFromVtt } from '@wordcut/transcript';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwkwardMedia, ensureAwkwardMedia } from '../../../../tools/media/awkward-media';
import { talkMedia } from '../../../../tools/media/talk-media';
import { startProviderSandbox, type ProviderSandbox } from '../../../../tools/provider-sandbox/sandbox';
import { IngestFailure } from '../ingest-failure';
import { transcribeForIngest, type TranscribeForIngestInput } from './ingest-transcription';
import { OpenAiCompatibleTranscriber } from './transcriber';

describe('transcription at ingest (real ffmpeg, S3 and the sandbox stand-in)', () => {
  let dir: string;
  let s3: LocalS3;
  let storage: S3ObjectStorage;
  let sandbox: ProviderSandbox;
  let talk: { mp4: string; vtt: string };
  let awkward: string;
  const tools = new FfmpegMediaTools();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wordcut-transcription-'));
    talk = talkMedia(join(__dirname, '../../../../.data/test-media'));
    awkward = await ensureAwkwardMedia();
    await copyFile(talk.mp4, join(dir, 'talk.mp4'));
    await copyFile(talk.vtt, join(dir, 'talk.vtt'));
    sandbox = await startProviderSandbox({ port: 0, mediaDir: dir, editorUrl: 'http://localhost:4200' });
    s3 = await startLocalS3({ port: 0, directory: join(dir, 's3') });
    storage = new S3ObjectStorage({ endpoint: s3.endpoint, region: 'us-east-1', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, bucket: 'transcription-test', forcePathStyle: true });
    await storage.ensureBucket();
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const input = (o: Partial<TranscribeForIngestInput> = {}): TranscribeForIngestInput => ({
    storage,
    tools,
    transcription: {
      transcriber: new OpenAiCompatibleTranscriber({ baseUrl: `${sandbox.url}/v1`, model: 'whisper-1', timeoutMs: 30_000 }),
      options: { format: 'mp3', chunkSec: 10, overlapSec: 2, maxFileBytes: 24 * 1024 * 1024 },
    },
    input: mediaInput(talk.mp4),
    durationSec: 22,
    hasAudio: true,
    wordsKey: 'videos/v/captions/job-1.transcribed.json',
    workDir: dir,
    ffmpegTimeoutMs: 30_000,
    onProgress: () => undefined,
    ...o,
  });
  const calls = () => sandbox.requests().filter((r) => r.path === '/v1/audio/transcriptions').length;

  it('hears the talk chunk by chunk, reports progress, keeps the words, and a redelivery asks nobody again', async () => {
    const progress: number[] = [];
    const built = await transcribeForIngest(input({ onProgress: (f) => progress.push(f) }));
    const script = buildTranscriptFromVtt(await readFile(talk.vtt, 'utf8')).words;
    expect(built.words.map((w) => w.text)).toEqual(script.map((w) => w.text));
    for (const [i, w] of built.words.entries()) expect(Math.abs(w.start - script[i]!.start)).toBeLessThan(0.05);
    expect(built.languageCode).toBe('en');
    expect(progress).toEqual([0, 1 / 3, 2 / 3, 1]);
    const asked = calls();
    expect(asked).toBe(3);
    const kept = JSON.parse(Buffer.from((await readObjectBytes(storage, 'videos/v/captions/job-1.transcribed.json'))!).toString('utf8')) as { languageCode: string; words: { text: string }[] };
    expect({ languageCode: kept.languageCode, words: kept.words.map((w) => w.text) }).toEqual({ languageCode: 'en', words: script.map((w) => w.text) });
    const again = await transcribeForIngest(input());
    expect(again.words).toEqual(built.words);
    expect(calls()).toBe(asked);
  });

  it('a video without sound, or audio the service refuses, fails with a reason for the person', async () => {
    await expect(transcribeForIngest(input({ hasAudio: false, wordsKey: 'videos/v/captions/job-2.transcribed.json' }))).rejects.toMatchObject({ code: 'NO_AUDIO' });
    const refused = transcribeForIngest(input({ input: mediaInput(join(awkward, AwkwardMedia.moovAtEnd)), durationSec: 3.5, wordsKey: 'videos/v/captions/job-3.transcribed.json' }));
    await expect(refused).rejects.toBeInstanceOf(IngestFailure);
    await expect(refused).rejects.toMatchObject({ code: 'TRANSCRIPTION_FAILED', message: expect.stringMatching(/^The video could not be transcribed: The transcription service answered HTTP 400: The sandbox transcribes only media whose script it knows/) });
    expect(await storage.head('videos/v/captions/job-3.transcribed.json')).toBeNull();
  });
});
