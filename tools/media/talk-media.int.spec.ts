/**
 * The synthesised talk and the audio half of pause detection on real media: its truth tiles the
 * talk, its word-level captions match its fragments, and the silences found in its energy series
 * (computePeaks' decode, findSilentSpans) are within 50 ms of the true pause edges, also over room
 * noise that a fixed 'inaudible' threshold would take for sound, and with a voice 20 dB quieter.
 */
import { ENERGY_FRAMES_PER_SECOND } from '@wordcut/contracts';
import { computePeaks, runFfmpeg } from '@wordcut/ffmpeg';
import { buildTranscriptFromVtt, findSilentSpans, type SilentSpan } from '@wordcut/transcript';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../stack/stack';
import { talkMedia, type TalkTruth } from './talk-media';

const MEDIA = join(ROOT, '.data', 'test-media');
const TOLERANCE = 0.05;

/** The silent span that overlaps each true pause, with the edge errors (seconds). */
function matchPauses(truth: TalkTruth, spans: readonly SilentSpan[], duration: number) {
  return truth.pauses.map((p) => {
    const span = spans.find((s) => s.start < p.end && s.end > p.start);
    // the trailing dead air ends where the encoded audio ends
    const end = p.end >= truth.duration - 0.001 ? duration : p.end;
    return { pause: p, span, startError: span ? Math.abs(span.start - p.start) : Infinity, endError: span ? Math.abs(span.end - end) : Infinity };
  });
}

describe('the synthesised talk (real ffmpeg, espeak-ng)', () => {
  let talk: ReturnType<typeof talkMedia>;
  let dir: string;

  beforeAll(() => {
    talk = talkMedia(MEDIA);
    dir = mkdtempSync(join(tmpdir(), 'wordcut-talk-'));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has pauses and fragments that tile it, each kind of pause, and captions whose fragments start and end on them', () => {
    const { truth } = talk;
    const pieces = [...truth.pauses, ...truth.fragments].sort((a, b) => a.start - b.start);
    expect(pieces[0]!.start).toBe(0);
    for (let i = 1; i < pieces.length; i++) expect(pieces[i]!.start).toBeCloseTo(pieces[i - 1]!.end, 5);
    expect(pieces[pieces.length - 1]!.end).toBeCloseTo(truth.duration, 5);
    expect(new Set(truth.pauses.map((p) => p.type))).toEqual(new Set(['technical', 'natural', 'awkward', 'dramatic']));
    const { words } = buildTranscriptFromVtt(readFileSync(talk.vtt, 'utf8'));
    expect(words.map((w) => w.text).join(' ')).toBe(truth.fragments.map((f) => f.text).join(' '));
    for (const f of truth.fragments) {
      expect(words.some((w) => Math.abs(w.start - f.start) < 0.001)).toBe(true);
      expect(words.some((w) => Math.abs(w.end - f.end) < 0.001)).toBe(true);
    }
  });

  it('finds every pause in the energy series within 50 ms of its true edges', async () => {
    const { durationSec, energy } = await computePeaks(talk.mp4, { peaksPerSecond: 100, timeoutMs: 30_000 });
    expect(energy.length).toBe(Math.ceil(durationSec * ENERGY_FRAMES_PER_SECOND));
    const found = findSilentSpans({ durationSec, framesPerSecond: ENERGY_FRAMES_PER_SECOND, levels: energy });
    for (const m of matchPauses(talk.truth, found.spans, durationSec)) {
      expect({ at: m.pause.start, startError: m.startError <= TOLERANCE, endError: m.endError <= TOLERANCE }).toEqual({ at: m.pause.start, startError: true, endError: true });
    }
    // and nothing else that long: the only other silence is the comma inside 'The first one is, um,'
    expect(found.spans.filter((s) => s.end - s.start >= 0.3)).toHaveLength(talk.truth.pauses.length);
  });

  it.each([
    ['over pink room noise', '[0:a][1:a]amix=inputs=2:duration=first:normalize=0[a]', (floor: number) => floor > -80],
    ['with a voice 20 dB quieter', '[0:a]volume=-20dB[a]', (floor: number) => floor < -100],
  ])('sets its threshold from the recording: %s it finds the same pauses', async (_label, graph, floorIs) => {
    const variant = join(dir, `variant-${graph.length}.mp4`);
    await runFfmpeg({
      timeoutMs: 60_000,
      args: [
        '-i', talk.mp4, '-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.002:sample_rate=44100:seed=7',
        '-filter_complex', graph, '-map', '[a]', '-c:a', 'aac', '-b:a', '96k', variant,
      ],
    });
    const { durationSec, energy } = await computePeaks(variant, { peaksPerSecond: 100, timeoutMs: 30_000 });
    const found = findSilentSpans({ durationSec, framesPerSecond: ENERGY_FRAMES_PER_SECOND, levels: energy });
    expect(floorIs(found.noiseFloorDb)).toBe(true);
    expect(found.thresholdDb).toBeGreaterThan(found.noiseFloorDb);
    for (const m of matchPauses(talk.truth, found.spans, durationSec)) {
      expect({ at: m.pause.start, startError: m.startError <= TOLERANCE, endError: m.endError <= TOLERANCE }).toEqual({ at: m.pause.start, startError: true, endError: true });
    }
  });
});
