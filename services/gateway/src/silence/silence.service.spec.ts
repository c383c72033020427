/**
 * The silence service without a database, a broker or S3: where the energy series comes from
 * (stored, or built by a media worker for media that has none), that the analysis is stored and a
 * repeat answers from the store, and the padding of process-silence's ranges. The store, storage
 * and bus are small in-memory fakes; the SQL of the store is covered by silence-store.int.spec.ts
 * and the whole route by tools/system-tests/silence.int.spec.ts.
 */
import {
  encodeEnergy,
  energyByte,
  ErrorCode,
  StorageKeys,
  Subjects,
  type DetectSilenceRequest,
  type DetectSilenceResponse,
  type Transcript,
} from '@wordcut/contracts';
import type { Messaging } from '@wordcut/messaging';
import { AppError, createLogger } from '@wordcut/platform';
import { ObjectNotFoundError, type ObjectStorage } from '@wordcut/storage';
import { Readable } from 'node:stream';
import { rejectedWith } from '../../../../tools/testing/app-error';
import type { EditService, EditVideoRow } from '../edits/edits.service';
import { PAUSE_RULES_VERSION, SilenceService } from './silence.service';
import type { SilenceAnalysisStore } from './silence-store';
import type { TranscriptStore } from '../transcripts/transcript-store';
import type { VideoStore } from '../videos/video-store';

const OWNER = 'owner-1';
const VIDEO = '00000000-0000-4000-8000-000000000001';
const REQ: DetectSilenceRequest = { minPauseDuration: 0.5, contextWords: 5, useAutoThresholds: false };

/** Speech 1-3 s and 3.8-6 s, digital silence around and between (duration 7 s). */
function energyBytes(): Uint8Array {
  const levels = new Uint8Array(700);
  for (let f = 0; f < 700; f++) levels[f] = (f >= 100 && f < 300) || (f >= 380 && f < 600) ? energyByte(-20) : 0;
  return encodeEnergy({ durationSec: 7, framesPerSecond: 100, levels });
}

function transcript(version = 1): Transcript {
  const words = ['Hello', 'there,', 'um,', 'friends.', 'We', 'begin', 'now.'].map((text, i) => {
    const [start, end] = i < 3 ? [1 + i * 0.66, 1.66 + i * 0.66] : [3.8 + (i - 3) * 0.55, 4.35 + (i - 3) * 0.55];
    return { text, start: Math.round(start * 1000) / 1000, end: Math.round(end * 1000) / 1000, confidence: 1, group_number: 0, word_order: i };
  });
  return { id: 't1', videoId: VIDEO, version, languageCode: 'en', words, paragraphs: [], fillerWords: [2], warnings: [], updatedAt: new Date(0).toISOString() };
}

function row(over: Partial<EditVideoRow> = {}): EditVideoRow {
  return {
    id: VIDEO,
    status: 'completed',
    duration: 7,
    has_audio: true,
    media_version: 'original',
    original_key: `videos/${VIDEO}/original/o.mp4`,
    playback_key: `videos/${VIDEO}/original/o.mp4`,
    waveform_key: null,
    edit_list: null,
    edit_version: 0,
    probe: null,
    ...over,
  } as EditVideoRow;
}

class FakeStorage {
  readonly objects = new Map<string, Uint8Array>();
  reads: string[] = [];
  async getStream(key: string) {
    this.reads.push(key);
    const bytes = this.objects.get(key);
    if (!bytes) throw new ObjectNotFoundError('bucket', key);
    return { body: Readable.from([Buffer.from(bytes)]) };
  }
}

/** A media worker behind rpc.media.waveform: writes the energy it is asked for (or answers `reply`). */
class FakeBus {
  requests: Array<{ subject: string; payload: Record<string, string> }> = [];
  reply: { ok: false; code: string; message: string } | 'down' | null = null;
  constructor(private readonly storage: FakeStorage) {}
  async request(subject: string, payload: Record<string, string>) {
    this.requests.push({ subject, payload });
    if (this.reply === 'down') throw new Error('nats: timeout');
    if (this.reply) return this.reply;
    this.storage.objects.set(payload['energyKey']!, energyBytes());
    return { ok: true, durationSec: 7, peakCount: 700 };
  }
}

class FakeStore {
  readonly rows = new Map<string, DetectSilenceResponse>();
  async current(videoId: string, ownerId: string, params: string) {
    return ownerId === OWNER ? (this.rows.get(`${videoId}|${params}`) ?? null) : null;
  }
  async put(videoId: string, _edit: number, _transcript: number, params: string, analysis: DetectSilenceResponse) {
    this.rows.set(`${videoId}|${params}`, analysis);
  }
}

function setup(video = row(), t: Transcript | null = transcript()) {
  const storage = new FakeStorage();
  const bus = new FakeBus(storage);
  const store = new FakeStore();
  const waveformKeys: string[] = [];
  let transcriptReads = 0;
  const videos = { setWaveformKey: async (_id: string, _v: string, key: string) => void waveformKeys.push(key) } as unknown as VideoStore;
  const transcripts = {
    getByVideo: async () => {
      transcriptReads++;
      return t;
    },
  } as unknown as TranscriptStore;
  const edits = {
    editableVideo: async (id: string, owner: string) => {
      if (id !== VIDEO || owner !== OWNER) throw new AppError(404, ErrorCode.NotFound, `There is no video with id '${id}'.`);
      return video;
    },
  } as unknown as EditService;
  const service = new SilenceService(
    { SILENCE_PADDING_MS: 100, WAVEFORM_BUILD_TIMEOUT_MS: 1000 },
    bus as unknown as Messaging,
    storage as unknown as ObjectStorage,
    createLogger('silence-test', 'silent'),
    videos,
    transcripts,
    edits,
    store as unknown as SilenceAnalysisStore,
  );
  return { service, storage, bus, store, waveformKeys, transcriptReads: () => transcriptReads };
}

describe('SilenceService.detect', () => {
  it('analyses the stored energy series with the transcript, stores it, and answers a repeat from the store', async () => {
    const s = setup();
    s.storage.objects.set(StorageKeys.energy(VIDEO, 'original'), energyBytes());
    const first = await s.service.detect(VIDEO, OWNER, REQ);
    expect(first.silences.map((x) => [x.startTime, x.endTime, x.pauseType, x.recommendation])).toEqual([
      [0, 1.005, 'technical', 'remove'],
      [2.995, 3.805, 'awkward', 'remove'],
      [5.995, 7, 'technical', 'remove'],
    ]);
    expect(first.silences[1]!.reason).toBe("A hesitation after the filler 'um'.");
    expect(first.summary.padding).toBe(0.1);
    expect(s.bus.requests).toEqual([]);
    expect([...s.store.rows.keys()]).toEqual([`${VIDEO}|rules=${PAUSE_RULES_VERSION};min=0.5;ctx=5;auto=0;pad=0.1`]);

    s.storage.objects.clear();
    const reads = s.transcriptReads();
    expect(await s.service.detect(VIDEO, OWNER, REQ)).toEqual(first);
    expect(s.transcriptReads()).toBe(reads);
    // other parameters are another analysis (here the energy is gone, so a worker builds it again)
    expect((await s.service.detect(VIDEO, OWNER, { ...REQ, contextWords: 2 })).silences[1]!.precedingText).toBe('there, um,');
    expect(s.bus.requests).toHaveLength(1);
    expect(s.store.rows.size).toBe(2);
  });

  it('asks a media worker for the energy (with the peaks) of media that has none, then records the waveform', async () => {
    const s = setup(row({ media_version: 'cut_1.mp4', playback_key: `videos/${VIDEO}/renders/cut_1.mp4` }));
    const a = await s.service.detect(VIDEO, OWNER, REQ);
    expect(a.summary.total).toBe(3);
    expect(s.bus.requests).toEqual([
      {
        subject: Subjects.rpcMediaWaveform,
        payload: { objectKey: `videos/${VIDEO}/renders/cut_1.mp4`, waveformKey: StorageKeys.waveform(VIDEO, 'cut_1.mp4'), energyKey: StorageKeys.energy(VIDEO, 'cut_1.mp4') },
      },
    ]);
    expect(s.waveformKeys).toEqual([StorageKeys.waveform(VIDEO, 'cut_1.mp4')]);
  });

  it('without audio, the pauses come from the word gaps alone', async () => {
    const none = setup(row({ has_audio: false }));
    const a = await none.service.detect(VIDEO, OWNER, REQ);
    expect(none.bus.requests).toEqual([]);
    expect(a.silences.every((x) => /word times alone/.test(x.reason))).toBe(true);
    const refused = setup();
    refused.bus.reply = { ok: false, code: 'NO_AUDIO', message: 'This video has no audio track.' };
    expect((await refused.service.detect(VIDEO, OWNER, REQ)).silences[0]!.reason).toMatch(/word times alone/);
  });

  it('a stranger gets 404 like a missing video; no transcript is 409; media a worker refuses is 422; no worker is 503', async () => {
    expect((await rejectedWith(setup().service.detect(VIDEO, 'someone-else', REQ))).statusCode).toBe(404);
    expect((await rejectedWith(setup(row(), null).service.detect(VIDEO, OWNER, REQ))).statusCode).toBe(409);
    const refused = setup();
    refused.bus.reply = { ok: false, code: 'NOT_MEDIA', message: 'This file is not a video we can read.' };
    expect(await rejectedWith(refused.service.detect(VIDEO, OWNER, REQ))).toMatchObject({ statusCode: 422, code: 'NOT_MEDIA' });
    const down = setup();
    down.bus.reply = 'down';
    expect(await rejectedWith(down.service.detect(VIDEO, OWNER, REQ))).toMatchObject({ statusCode: 503, code: ErrorCode.ServiceUnavailable });
  });
});

describe('SilenceService.removalRanges', () => {
  it('keeps the configured padding next to speech and none at the media edges', () => {
    const { service } = setup();
    expect(service.removalRanges(row(), [{ start: 0, end: 1 }, { start: 3, end: 3.8 }, { start: 6, end: 7 }])).toEqual([
      { start: 0, end: 0.9 },
      { start: 3.1, end: 3.7 },
      { start: 6.1, end: 7 },
    ]);
  });
});
