/**
 * The key-moments service without a database, S3 or NATS: the analysis requested as a job (the
 * words left in storage, the media's keys named), a stand-in media worker that runs the real
 * analyser on what the job names and announces the result, the service storing it and completing
 * the job, the wait answering the moments or 202 with the job, a failed job's error, the store
 * answering a repeat and the GET, and the language model's answer when it holds. The store,
 * storage, bus and model are small in-memory fakes; the SQL is covered by
 * key-moment-store.int.spec.ts, the real worker and the whole route by
 * tools/system-tests/keymoments.int.spec.ts.
 */
import {
  decodeEnergy,
  encodeEnergy,
  ErrorCode,
  keyMomentsJobWordsSchema,
  StorageKeys,
  Subjects,
  type JobRequestedEvent,
  type KeyMoment,
  type KeyMomentsFoundEvent,
  type KeyMomentsJobInput,
  type KeyMomentsJobResult,
  type KeyMomentSource,
  type Transcript,
} from '@wordcut/contracts';
import { findKeyMoments, type FoundMoment, type TimedWord } from '@wordcut/keymoments';
import type { InboundMessage, Messaging } from '@wordcut/messaging';
import { AppError, createLogger } from '@wordcut/platform';
import { ObjectNotFoundError, type ObjectStorage } from '@wordcut/storage';
import { Readable } from 'node:stream';
import { rejectedWith } from '../../../../tools/testing/app-error';
import type { EditService, EditVideoRow } from '../edits/edits.service';
import type { KeyMomentStore, StoredKeyMoments } from './key-moment-store';
import { KeyMomentsService } from './key-moments.service';
import type { KeyMomentsLlm } from './key-moments-llm';
import type { ClipStore } from '../clips/clip-store';
import { ClipsService } from '../clips/clips.service';
import type { RenderStore } from '../edits/render-store';
import type { TranscriptStore } from '../transcripts/transcript-store';

const OWNER = 'owner-1';
const VIDEO = '00000000-0000-4000-8000-000000000001';
const LINES = [
  'The meeting room was on the third floor of the old building near the station.',
  'We usually had the weekly review there on the morning before the team lunch.',
  'First, open the settings page from the menu at the top of the window.',
  'Second, choose the export tab and look for the format list.',
  'Third, pick the format that your editor expects for the final file.',
  'Finally, press the save button and wait until the bar turns green.',
  'The chairs were grey and the table was long enough for about twelve people.',
  'Somebody had left a pile of printed reports next to the window that week.',
  'Simple tools beat clever tools every single time.',
  'The projector took a while to warm up before the slides appeared on the wall.',
  'Most people arrived a few minutes early and sat down in the same seats as usual.',
  'The agenda had the same headings as the week before with a few small changes.',
  'After the review the room was booked by another group from the finance department.',
  'There was a coffee machine in the corridor outside the meeting room door.',
  'The notes from the review were written up and shared by the end of the afternoon.',
  'The windows of the room looked out over the car park and a row of small trees.',
];

function transcript(): Transcript {
  const words: Transcript['words'] = [];
  let t = 0.5;
  for (const line of LINES) {
    for (const text of line.split(' ')) {
      words.push({ text, start: Math.round(t * 1000) / 1000, end: Math.round((t + 0.32) * 1000) / 1000, confidence: 1, group_number: 0, word_order: words.length });
      t += 0.38;
    }
    t += 0.45;
  }
  return { id: 't1', videoId: VIDEO, version: 1, languageCode: 'en', words, paragraphs: [], fillerWords: [], warnings: [], updatedAt: new Date(0).toISOString() };
}
const DURATION = Math.ceil(transcript().words.at(-1)!.end + 1);

function row(): EditVideoRow {
  return { id: VIDEO, status: 'completed', duration: DURATION, has_audio: true, media_version: 'original', original_key: 'k', playback_key: 'k', waveform_key: null, edit_list: null, edit_version: 0, probe: null, width: 1280, height: 720 } as EditVideoRow;
}

class FakeStorage {
  readonly objects = new Map<string, Uint8Array>();
  async upload(key: string, body: Buffer) {
    this.objects.set(key, new Uint8Array(body));
  }
  async delete(key: string) {
    this.objects.delete(key);
  }
  reads: string[] = [];
  async getStream(key: string) {
    this.reads.push(key);
    const bytes = this.objects.get(key);
    if (!bytes) throw new ObjectNotFoundError('bucket', key);
    return { body: Readable.from([Buffer.from(bytes)]) };
  }
}

class FakeStore {
  readonly rows = new Map<string, StoredKeyMoments>();
  /** the edit version the stored moments were found on */
  foundOn = 0;
  async owned(momentId: string, ownerId: string) {
    if (ownerId !== OWNER) return null;
    for (const stored of this.rows.values()) {
      const moment = stored.moments.find((m) => m.id === momentId);
      if (moment) return { moment, videoId: VIDEO, editVersion: this.foundOn };
    }
    return null;
  }
  async current(videoId: string, ownerId: string, params: string) {
    return ownerId === OWNER ? (this.rows.get(`${videoId}|${params}`) ?? null) : null;
  }
  async put(videoId: string, _edit: number, _transcript: number, params: string, moments: KeyMoment[], source: KeyMomentSource) {
    const stored = { moments, analysedAt: new Date(0).toISOString(), source };
    this.rows.set(`${videoId}|${params}`, stored);
    return stored;
  }
}

/** What a media worker does with a key-moment job, on the fakes: read the words and the energy, analyse, write the result. */
async function fakeWorker(storage: FakeStorage, input: KeyMomentsJobInput): Promise<void> {
  const { words } = keyMomentsJobWordsSchema.parse(JSON.parse(Buffer.from(storage.objects.get(input.wordsKey)!).toString('utf8')));
  const energyBytes = storage.objects.get(input.energyKey);
  const energy = energyBytes ? decodeEnergy(energyBytes) : null;
  const result: KeyMomentsJobResult = { moments: findKeyMoments({ words, energy }).map(({ firstWord: _f, lastWord: _l, ...m }) => m), sceneChanges: null, withAudio: energy !== null };
  await storage.upload(input.resultKey, Buffer.from(JSON.stringify(result)));
}

function setup(llm: ((words: readonly TimedWord[]) => FoundMoment[] | null) | null = null, o: { waitMs?: number; workerFails?: string; holdWorker?: boolean } = {}) {
  const storage = new FakeStorage();
  const store = new FakeStore();
  let transcriptReads = 0;
  const asked: number[] = [];
  const published: Array<{ jobId: string; kind: string; input: Record<string, unknown> }> = [];
  const requested: JobRequestedEvent[] = [];
  const completed: string[] = [];
  const failed = new Map<string, string>();
  const clips: Array<Record<string, unknown>> = [];
  const held: Array<() => Promise<void>> = [];
  const runJob = async (e: JobRequestedEvent) => {
    const input = e.input as KeyMomentsJobInput;
    if (o.workerFails) {
      failed.set(e.jobId, o.workerFails);
      return;
    }
    await fakeWorker(storage, input);
    const found: KeyMomentsFoundEvent = { jobId: e.jobId, videoId: input.videoId, resultKey: input.resultKey, editVersion: input.editVersion, transcriptVersion: input.transcriptVersion, params: input.params, worker: 'fake-worker', at: new Date().toISOString() };
    await service.onFound({ data: found } as InboundMessage<KeyMomentsFoundEvent>);
  };
  const bus = {
    provision: async () => undefined,
    consume: async () => undefined,
    publish: async (subject: string, data: unknown) => {
      if (subject.startsWith(`${Subjects.jobRequested}.`)) {
        const e = data as JobRequestedEvent;
        requested.push(e);
        const run = () => runJob(e);
        if (o.holdWorker) held.push(run);
        else setTimeout(() => void run(), 5);
      }
      if (subject === Subjects.jobCompleted) completed.push((data as { jobId: string }).jobId);
      return { seq: 1, duplicate: false };
    },
  };
  const objects = storage as unknown as ObjectStorage;
  const clipStore = { create: async (clip: Record<string, unknown>) => void clips.push(clip) } as unknown as ClipStore;
  const renders = { setClip: async () => undefined } as unknown as RenderStore;
  const transcripts = {
    getByVideo: async () => {
      transcriptReads++;
      return transcript();
    },
  } as unknown as TranscriptStore;
  const owned = async (id: string, owner: string) => {
    if (id !== VIDEO || owner !== OWNER) throw new AppError(404, ErrorCode.NotFound, `There is no video with id '${id}'.`);
    return row();
  };
  const edits = {
    editableVideo: owned,
    ownedVideo: owned,
    getVideo: async () => row(),
    jobStatus: async (jobId: string) =>
      completed.includes(jobId) ? { status: 'completed' } : failed.has(jobId) ? { status: 'error', error: failed.get(jobId) } : { status: 'processing' },
    claim: async () => undefined,
    publishRequest: async (jobId: string, kind: string, input: Record<string, unknown>) => void published.push({ jobId, kind, input }),
  } as unknown as EditService;
  const model = llm
    ? ({
        model: 'fake',
        find: async (words: readonly TimedWord[]) => {
          asked.push(words.length);
          return llm(words);
        },
      } as unknown as KeyMomentsLlm)
    : null;
  const service = new KeyMomentsService(
    bus as unknown as Messaging,
    objects,
    createLogger('keymoments-test', 'silent'),
    transcripts,
    edits,
    new ClipsService(edits, transcripts, objects, clipStore, renders),
    store as unknown as KeyMomentStore,
    model,
    o.waitMs ?? 5000,
  );
  return { service, storage, store, asked, published, requested, completed, held, clips, transcriptReads: () => transcriptReads };
}

/** The moments of an answer that must not be pending. */
function moments(answer: Awaited<ReturnType<KeyMomentsService['find']>>) {
  if ('jobId' in answer) throw new Error(`still pending: ${answer.jobId}`);
  return answer;
}

describe('KeyMomentsService', () => {
  it('runs the analysis as a job on the words and the media it names, stores what the worker found, and answers a repeat and the GET from the store', async () => {
    const s = setup();
    const levels = new Uint8Array(DURATION * 100);
    for (const w of transcript().words) for (let f = Math.floor(w.start * 100); f < Math.ceil(w.end * 100); f++) levels[f] = 200;
    s.storage.objects.set(StorageKeys.energy(VIDEO, 'original'), encodeEnergy({ durationSec: DURATION, framesPerSecond: 100, levels }));
    expect(await s.service.stored(VIDEO, OWNER)).toEqual({ moments: [], analysedAt: null, source: null });
    const first = moments(await s.service.find(VIDEO, OWNER));
    expect(first.source).toBe('local');
    expect(first.moments.length).toBeGreaterThanOrEqual(5);
    expect(first.moments.map((m) => m.category)).toEqual(expect.arrayContaining(['Actionable', 'Quotable']));
    for (const m of first.moments) expect(m.id).toMatch(/^[0-9a-f-]{36}$/);
    // one job, of its own kind, naming the media's energy and scenes of this version
    expect(s.requested).toHaveLength(1);
    const job = s.requested[0]!;
    expect(job.jobId).toMatch(/^keymoments_[0-9a-f-]{36}$/);
    expect(job).toMatchObject({ kind: 'keymoments', input: { videoId: VIDEO, userId: OWNER, mediaKey: 'k', hasAudio: true, energyKey: StorageKeys.energy(VIDEO, 'original'), scenesKey: StorageKeys.scenes(VIDEO, 'original'), editVersion: 0, transcriptVersion: 1 } });
    expect(s.completed).toEqual([job.jobId]);
    // its words and result are removed once stored
    expect([...s.storage.objects.keys()]).toEqual([StorageKeys.energy(VIDEO, 'original')]);
    expect(await s.service.find(VIDEO, OWNER)).toEqual(first);
    expect(await s.service.stored(VIDEO, OWNER)).toEqual(first);
    expect(s.requested).toHaveLength(1);
    expect(s.transcriptReads()).toBe(1);
  });

  it('answers 202 with the job when it takes longer than the wait, and the GET has the moments once it is done', async () => {
    const s = setup(null, { waitMs: 0, holdWorker: true });
    const pending = await s.service.find(VIDEO, OWNER);
    expect(pending).toEqual({ jobId: s.requested[0]!.jobId, status: 'processing', moments: [] });
    expect(await s.service.stored(VIDEO, OWNER)).toEqual({ moments: [], analysedAt: null, source: null });
    await s.held[0]!();
    expect((await s.service.stored(VIDEO, OWNER)).moments.length).toBeGreaterThanOrEqual(5);
  });

  it("answers a failed job's error", async () => {
    const s = setup(null, { workerFails: 'Key moments could not be found: disk full' });
    const err = await rejectedWith(s.service.find(VIDEO, OWNER));
    expect(err.statusCode).toBe(503);
    expect(err.message).toBe('Key moments could not be found: disk full');
  });

  it('answers a stranger 404 like a missing video', async () => {
    const s = setup();
    expect((await rejectedWith(s.service.find(VIDEO, 'someone-else'))).statusCode).toBe(404);
    expect((await rejectedWith(s.service.stored(VIDEO, 'someone-else'))).statusCode).toBe(404);
  });

  it("uses the model's moments when they hold, and a job with the local analyser when the model answers nothing", async () => {
    const theirs: FoundMoment = { title: 'From the model', description: 'd', category: 'Visual', engagement: 77, startTime: 0.5, endTime: 20, duration: 19.5, reasons: ['r'], firstWord: 0, lastWord: 40 };
    const good = setup(() => [theirs]);
    const answer = moments(await good.service.find(VIDEO, OWNER));
    expect(answer.source).toBe('llm');
    expect(answer.moments.map(({ id: _id, ...m }) => m)).toEqual([{ title: 'From the model', description: 'd', category: 'Visual', engagement: 77, startTime: 0.5, endTime: 20, duration: 19.5, reasons: ['r'] }]);
    expect(good.asked).toEqual([transcript().words.length]);
    expect(good.requested).toEqual([]);
    const failing = setup(() => null);
    const fallback = moments(await failing.service.find(VIDEO, OWNER));
    expect(fallback.source).toBe('local');
    expect(failing.requested).toHaveLength(1);
    expect(fallback.moments.map((m) => m.category)).toEqual(expect.arrayContaining(['Actionable', 'Quotable']));
  });
});

describe('KeyMomentsService.exportMoment', () => {
  async function found() {
    const s = setup();
    const { moments: found } = moments(await s.service.find(VIDEO, OWNER));
    return { s, moment: found[0]! };
  }

  it('renders the moment as a clip of the video, named by its title, zoomed and panned as asked', async () => {
    const { s, moment } = await found();
    const answer = await s.service.exportMoment(moment.id, OWNER, { aspectRatio: '9:16', mode: 'reframe', reframe: { offsetX: 10, offsetY: -5, scale: 2 } });
    expect(answer).toMatchObject({ name: moment.title, aspectRatio: '9:16', status: 'pending', momentId: moment.id, mode: 'crop', width: 1080, height: 1920, reframe: { offsetX: 10, offsetY: -5, scale: 2 } });
    expect(answer.upscale).toBeCloseTo(1920 / 360, 9);
    expect(s.clips).toEqual([expect.objectContaining({ id: answer.id, name: moment.title, startTime: moment.startTime, endTime: moment.endTime, aspectRatio: '9:16' })]);
    expect(s.published).toHaveLength(1);
    expect(s.published[0]).toMatchObject({ jobId: answer.jobId, kind: 'clip', input: { reframe: { aspectRatio: '9:16', offsetX: 10, offsetY: -5, scale: 2 } } });
    expect(answer.jobId).toMatch(/^clip_/);
  });

  it('holds the zoom to its steps and the pan to the frame, and reads a crop rectangle as zoom and pan', async () => {
    const { s, moment } = await found();
    const held = await s.service.exportMoment(moment.id, OWNER, { aspectRatio: '16:9', mode: 'reframe', reframe: { offsetX: 100, offsetY: 0, scale: 2.04 } });
    expect(held.reframe).toEqual({ offsetX: 25, offsetY: 0, scale: 2 });
    const byCrop = await s.service.exportMoment(moment.id, OWNER, { aspectRatio: '16:9', mode: 'reframe', crop: { x: 640, y: 0, width: 640, height: 360 } });
    expect(byCrop.reframe).toEqual({ offsetX: 25, offsetY: -25, scale: 2 });
  });

  it('passes Original through at zoom 1 without pan', async () => {
    const { s, moment } = await found();
    const answer = await s.service.exportMoment(moment.id, OWNER, { aspectRatio: 'Original', mode: 'reframe' });
    expect(answer).toMatchObject({ mode: 'original', width: 1280, height: 720, upscale: 1, reframe: { offsetX: 0, offsetY: 0, scale: 1 } });
  });

  it('answers a stranger and a missing moment 404, and a moment of an older version 409', async () => {
    const { s, moment } = await found();
    const body = { aspectRatio: '9:16' as const, mode: 'reframe' as const };
    expect((await rejectedWith(s.service.exportMoment(moment.id, 'someone-else', body))).statusCode).toBe(404);
    expect((await rejectedWith(s.service.exportMoment('00000000-0000-4000-8000-00000000dead', OWNER, body))).statusCode).toBe(404);
    s.store.foundOn = -1;
    const stale = await rejectedWith(s.service.exportMoment(moment.id, OWNER, body));
    expect(stale.statusCode).toBe(409);
    expect(stale.message).toBe('The video has changed since this moment was found. Find key moments again.');
    expect(s.published).toEqual([]);
  });
});
