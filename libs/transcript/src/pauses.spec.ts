import { energyByte, type DetectSilenceResponse, type SilenceSegment } from '@wordcut/contracts';
import {
  analysePauses,
  findSilentSpans,
  padRemovalRanges,
  PAUSE_RULES,
  type PauseAnalysisOptions,
  type PauseWord,
  type SilentSpan,
} from './index';

// ---- constructed talks ---------------------------------------------------------------------------

/** A word (0.3 s unless given as [text, seconds]) or a silence of so many seconds. */
type Piece = string | [string, number] | number;

interface Talk {
  words: PauseWord[];
  /** the silences exactly where the script has them (level: digital silence) */
  silences: SilentSpan[];
  duration: number;
}

/** Lays a script out in time: words back to back, numbers are silences between them. */
function talk(...pieces: Piece[]): Talk {
  const words: PauseWord[] = [];
  const silences: SilentSpan[] = [];
  let t = 0;
  for (const p of pieces) {
    if (typeof p === 'number') {
      silences.push({ start: round(t), end: round(t + p), levelDb: -127.5 });
      t += p;
    } else {
      const [text, d] = typeof p === 'string' ? [p, 0.3] : p;
      words.push({ text, start: round(t), end: round(t + d) });
      t += d;
    }
  }
  return { words, silences, duration: round(t) };
}
const round = (x: number) => Math.round(x * 1000) / 1000;

const OPTIONS: PauseAnalysisOptions = { minPauseDuration: 0.5, contextWords: 5, useAutoThresholds: false, padding: 0.1 };
const analyse = (t: Talk, o: Partial<PauseAnalysisOptions> = {}, extra: { noiseFloorDb?: number; mutedRanges?: { start: number; end: number }[] } = {}) =>
  analysePauses({ words: t.words, silences: t.silences, duration: t.duration, ...extra }, { ...OPTIONS, ...o });
/** The pause right after the nth word `text` of a talk. */
const after = (a: DetectSilenceResponse, t: Talk, text: string, nth = 0): SilenceSegment => at(a, t.words.filter((w) => w.text === text)[nth]!.end);
/** The pause that starts at `start` (to the millisecond). */
const at = (a: DetectSilenceResponse, start: number): SilenceSegment => {
  const s = a.silences.find((x) => Math.abs(x.startTime - start) < 0.002);
  if (!s) throw new Error(`no pause at ${start}: ${a.silences.map((x) => x.startTime).join(', ')}`);
  return s;
};

/** A typical talk: dead air, sentences with 0.8 s between them, fillers, a question, dead air. */
const TYPICAL = talk(
  2.0,
  'Welcome', 'back', 'to', 'the', 'channel.', 0.8,
  'Today', 'we', 'look', 'at', 'editing.', 0.9,
  'The', 'first', 'one', 'is,', 'um,', 1.4,
  'cutting', 'the', 'pauses.', 0.8,
  'Why', 'does', 'it', 'matter?', 1.6,
  'Every', 'second', 'counts.', 0.7,
  'Thanks', 'for', 'watching.', 2.5,
);
// starts of TYPICAL's pauses
const LEAD = 0;
const AFTER_CHANNEL = 3.5;
const AFTER_EDITING = 5.8;
const AFTER_UM = 8.2;
const AFTER_PAUSES = 10.5;
const AFTER_QUESTION = 12.5;
const AFTER_COUNTS = 15.0;
const TRAIL = 16.6;

describe('analysePauses: types and recommendations', () => {
  const a = analyse(TYPICAL);

  it('finds every pause of the script, with its exact edges, in order', () => {
    expect(a.silences.map((s) => [s.startTime, s.endTime])).toEqual(TYPICAL.silences.map((s) => [s.start, s.end]));
    expect(a.silences.map((s) => s.duration)).toEqual([2, 0.8, 0.9, 1.4, 0.8, 1.6, 0.7, 2.5]);
    expect(new Set(a.silences.map((s) => s.id)).size).toBe(a.silences.length);
    expect(at(a, AFTER_UM).id).toBe('pause-8200');
  });

  it('dead air at the start and the end is technical and removed', () => {
    expect(at(a, LEAD)).toMatchObject({ pauseType: 'technical', recommendation: 'remove', confidence: 0.95, precedingText: '', followingText: 'Welcome back to the channel.' });
    expect(at(a, LEAD).reason).toMatch(/dead air before the first word/i);
    expect(at(a, TRAIL)).toMatchObject({ pauseType: 'technical', recommendation: 'remove', followingText: '' });
    expect(at(a, TRAIL).reason).toMatch(/dead air after the last word/i);
  });

  it('a pause after a filler inside a sentence is awkward and removed', () => {
    expect(at(a, AFTER_UM)).toMatchObject({ pauseType: 'awkward', recommendation: 'remove', precedingText: 'The first one is, um,', followingText: 'cutting the pauses. Why does' });
    expect(at(a, AFTER_UM).reason).toBe("A hesitation after the filler 'um'.");
  });

  it('pauses between sentences at the usual rhythm are natural and kept', () => {
    for (const start of [AFTER_CHANNEL, AFTER_EDITING, AFTER_PAUSES, AFTER_COUNTS]) {
      expect(at(a, start)).toMatchObject({ pauseType: 'natural', recommendation: 'keep', confidence: 0.8 });
      expect(at(a, start).reason).toMatch(/usual rhythm \(about 0\.8 s\)/);
    }
  });

  it('a pause after a question is dramatic and kept', () => {
    expect(at(a, AFTER_QUESTION)).toMatchObject({ pauseType: 'dramatic', recommendation: 'keep' });
    expect(at(a, AFTER_QUESTION).reason).toMatch(/after a question/i);
  });

  it('a pause inside a sentence without a filler is awkward and names the words around it', () => {
    const b = analyse(talk('We', 'can', 'also', 1.2, 'remove', 'it.', 0.8, 'Next', 'one.', 0.8, 'And', 'more.', 0.8, 'Done.'));
    expect(at(b, 0.9)).toMatchObject({ pauseType: 'awkward', recommendation: 'remove', confidence: 0.85 });
    expect(at(b, 0.9).reason).toBe("A pause inside a sentence, between 'also' and 'remove' (1.2 s).");
  });

  it('a pause before a filler, or before a restart, is an awkward hesitation', () => {
    const t = talk('So', 'I', 'went', 0.9, 'uh', 'there.', 0.7, 'I', 'went', 1.0, 'I', 'went', 'home.', 0.7, 'Right.', 0.7, 'Yes.');
    const b = analyse(t);
    expect(after(b, t, 'went')).toMatchObject({ pauseType: 'awkward', recommendation: 'remove' });
    expect(after(b, t, 'went').reason).toBe("A hesitation before the filler 'uh'.");
    expect(after(b, t, 'went', 1)).toMatchObject({ pauseType: 'awkward', recommendation: 'remove' });
    expect(after(b, t, 'went', 1).reason).toMatch(/before a restart: 'I' picks up again after 'went'/);
    const c = talk('We', 'dec-', 0.8, 'we', 'decided.', 0.7, 'Then.', 0.7, 'More.', 0.7, 'End.');
    expect(after(analyse(c), c, 'dec-').reason).toMatch(/restart/);
    // a sentence may open with a filler after an ordinary pause between sentences
    const d = talk('Done.', 0.8, 'Um,', 'next', 'one.', 0.8, 'Two.', 0.8, 'Three.');
    expect(after(analyse(d), d, 'Done.')).toMatchObject({ pauseType: 'natural', recommendation: 'keep' });
  });

  it('a short pause at a clause break is a natural breath; a long one is awkward', () => {
    const t = talk('First,', 0.6, 'we', 'cut.', 0.8, 'Then,', 1.6, 'we', 'wait.', 0.8, 'Again.', 0.8, 'End.');
    const b = analyse(t);
    expect(after(b, t, 'First,')).toMatchObject({ pauseType: 'natural', recommendation: 'keep', confidence: 0.7 });
    expect(after(b, t, 'First,').reason).toMatch(/breath at a clause break after 'First'/);
    expect(after(b, t, 'Then,')).toMatchObject({ pauseType: 'awkward', recommendation: 'remove' });
    expect(after(b, t, 'Then,').reason).toMatch(/at a clause break inside a sentence/);
  });

  it('without punctuation to tell sentences apart, pauses are natural unless a filler, a restart or their length says otherwise', () => {
    const t = talk('so', 'we', 'start', 0.8, 'here', 'and', 'then', 0.9, 'we', 'go', 'on', 0.8, 'um', 1.0, 'to', 'the', 'end', 3.5, 'right', 'now');
    const b = analyse(t);
    expect(after(b, t, 'start')).toMatchObject({ pauseType: 'natural', recommendation: 'keep', confidence: 0.6 });
    expect(after(b, t, 'start').reason).toMatch(/no punctuation/);
    expect(after(b, t, 'um')).toMatchObject({ pauseType: 'awkward', recommendation: 'remove' });
    expect(after(b, t, 'end')).toMatchObject({ pauseType: 'natural', recommendation: 'remove' });
  });

  it('a pause before a key point is dramatic', () => {
    const t = talk('We', 'tried.', 0.8, 'It', 'failed.', 0.9, 'The', 'key', 'is', 'time.', 0.8, 'Done.', 0.8, 'Bye.');
    const b = analyse(t);
    expect(after(b, t, 'failed.')).toMatchObject({ pauseType: 'dramatic', recommendation: 'keep', confidence: 0.65 });
    expect(after(b, t, 'failed.').reason).toBe("Before a key point ('the key…').");
  });

  it('a longer pause between sentences is dramatic; far longer than usual is recommended for removal', () => {
    const t = talk('One.', 0.8, 'Two.', 0.8, 'Three.', 1.4, 'Four.', 3.0, 'Five.', 0.8, 'Six.', 0.8, 'Seven.');
    const b = analyse(t);
    expect(after(b, t, 'Three.')).toMatchObject({ pauseType: 'dramatic', recommendation: 'keep' });
    expect(after(b, t, 'Three.').reason).toMatch(/longer than this speaker's usual 0\.8 s/i);
    expect(after(b, t, 'Four.')).toMatchObject({ pauseType: 'dramatic', recommendation: 'remove' });
    expect(after(b, t, 'Four.').reason).toMatch(/Far longer than this speaker's usual 0\.8 s, so removing it is recommended\.$/);
  });

  it('a long gap without speech between words is technical', () => {
    const t = talk('One.', 0.8, 'Two.', 0.8, 'Three.', 6.0, 'Four.', 0.8, 'Five.');
    const b = analyse(t);
    expect(after(b, t, 'Three.')).toMatchObject({ pauseType: 'technical', recommendation: 'remove', confidence: 0.85 });
    expect(after(b, t, 'Three.').reason).toMatch(/No speech for 6\.0 s/);
  });

  it('a silence far under the noise floor of a recording that has one is a signal dropout', () => {
    const t = talk('One.', 0.8, 'Two', 0.6, 'three.', 0.8, 'Four.', 0.8, 'Five.');
    t.silences = t.silences.map((s) => ({ ...s, levelDb: Math.abs(s.start - 1.4) < 0.01 ? -127.5 : -58 }));
    const b = analyse(t, {}, { noiseFloorDb: -60 });
    expect(at(b, 1.4)).toMatchObject({ pauseType: 'technical', recommendation: 'remove', confidence: 0.9 });
    expect(at(b, 1.4).reason).toMatch(/signal drops out: 68 dB below the recording's own noise floor/);
    expect(at(b, 0.3).pauseType).toBe('natural');
    // in a recording whose floor is digital silence there is no dropout to tell apart
    expect(at(analyse(t, {}, { noiseFloorDb: -127.5 }), 1.4).pauseType).toBe('awkward');
  });

  it('no words at all: the whole silence is dead air', () => {
    const b = analysePauses({ words: [], silences: [{ start: 0, end: 3, levelDb: -127.5 }], duration: 3 }, OPTIONS);
    expect(b.silences).toEqual([expect.objectContaining({ pauseType: 'technical', recommendation: 'remove', startTime: 0, endTime: 3 })]);
    expect(b.speechMetrics).toEqual({ wordsPerMinute: 0, speechPattern: 'steady', averagePauseDuration: 0, suggestedThresholds: { minPauseDuration: 0.5 } });
  });
});

describe('analysePauses: thresholds, context, evidence', () => {
  it('reports only pauses that reach the threshold, within one 10 ms frame', () => {
    const t = talk('One.', 1.995, 'Two.', 1.98, 'Three.');
    expect(analyse(t, { minPauseDuration: 2 }).silences.map((s) => s.duration)).toEqual([1.995]);
    expect(analyse(t, { minPauseDuration: 3 }).silences).toEqual([]);
  });

  it('learns the speaker threshold from their own pauses and applies it when it is lower than the request', () => {
    // usual pause between sentences 0.8 s: 1.5 x 0.8 = 1.2 s
    const auto = analyse(TYPICAL, { minPauseDuration: 2, useAutoThresholds: true });
    expect(auto.speechMetrics.suggestedThresholds.minPauseDuration).toBe(1.2);
    expect(auto.summary).toMatchObject({ minPauseDuration: 1.2, autoThresholdApplied: true, total: 4 });
    expect(auto.silences.map((s) => s.startTime)).toEqual([LEAD, AFTER_UM, AFTER_QUESTION, TRAIL]);
    const fixed = analyse(TYPICAL, { minPauseDuration: 2, useAutoThresholds: false });
    expect(fixed.summary).toMatchObject({ minPauseDuration: 2, autoThresholdApplied: false, total: 2 });
    // a lower request is kept: the suggestion would only hide pauses asked for
    expect(analyse(TYPICAL, { minPauseDuration: 0.5, useAutoThresholds: true }).summary).toMatchObject({ minPauseDuration: 0.5, autoThresholdApplied: false, total: 8 });
  });

  it('widely spread pauses raise the suggestion (usual + 2 median deviations)', () => {
    const t = talk('A.', 0.5, 'B.', 1.5, 'C.', 0.6, 'D.', 1.4, 'E.', 1.0, 'F.');
    // sentence pauses 0.5 0.6 1.0 1.4 1.5: usual 1.0, median deviation 0.4 -> max(1.5, 1.8)
    expect(analyse(t).speechMetrics.suggestedThresholds.minPauseDuration).toBe(1.8);
  });

  it('with too few pauses to learn from, the suggestion is the request', () => {
    const t = talk('One.', 0.9, 'Two.');
    expect(analyse(t, { minPauseDuration: 2, useAutoThresholds: true }).speechMetrics.suggestedThresholds.minPauseDuration).toBe(2);
  });

  it('gives contextWords words on each side, none with 0', () => {
    const a = analyse(TYPICAL, { contextWords: 2 });
    expect(at(a, AFTER_UM)).toMatchObject({ precedingText: 'is, um,', followingText: 'cutting the' });
    expect(at(analyse(TYPICAL, { contextWords: 0 }), AFTER_UM)).toMatchObject({ precedingText: '', followingText: '' });
  });

  it('without audio, the gaps between words are the pauses, with less confidence', () => {
    const a = analysePauses({ words: TYPICAL.words, silences: null, duration: TYPICAL.duration }, OPTIONS);
    expect(a.silences.map((s) => s.startTime)).toEqual([LEAD, AFTER_CHANNEL, AFTER_EDITING, AFTER_UM, AFTER_PAUSES, AFTER_QUESTION, AFTER_COUNTS, TRAIL]);
    expect(at(a, AFTER_UM)).toMatchObject({ pauseType: 'awkward', confidence: 0.54 });
    expect(at(a, AFTER_UM).reason).toMatch(/word times alone/);
  });

  it('estimates where a silence falls when the transcript spreads a cue over it', () => {
    // one cue "The first one is, um, cutting the pauses." from 0 to 4.0 s with its words spread by
    // length over the whole cue, while the audio has speech 0-1.2 s, silence 1.2-2.6 s, speech 2.6-4.0 s
    const text = ['The', 'first', 'one', 'is,', 'um,', 'cutting', 'the', 'pauses.'];
    const letters = text.map((w) => w.replace(/[^a-z]/gi, '').length);
    const total = letters.reduce((x, y) => x + y, 0);
    let t = 0;
    const words: PauseWord[] = text.map((w, i) => {
      const d = (4 * letters[i]!) / total;
      const word = { text: w, start: round(t), end: round(t + d) };
      t += d;
      return word;
    });
    const a = analysePauses({ words, silences: [{ start: 1.2, end: 2.6, levelDb: -127.5 }], duration: 4 }, OPTIONS);
    expect(a.silences).toHaveLength(1);
    expect(a.silences[0]).toMatchObject({ startTime: 1.2, endTime: 2.6, pauseType: 'awkward', precedingText: 'The first one is, um,', followingText: 'cutting the pauses.', confidence: 0.68 });
    expect(a.silences[0]!.reason).toMatch(/filler 'um'.*estimated/);
  });

  it('places the pauses between sentences when every cue runs on to the next one (its pause inside it)', () => {
    // three cues, each a sentence and the pause after it, back to back; the audio knows where the speech is
    const cues = [
      { text: 'Welcome back to the channel.', start: 0, speech: 1.4, end: 2.2 },
      { text: 'Today we look at three ways to speed up your editing.', start: 2.2, speech: 4.88, end: 5.8 },
      { text: 'Thanks for watching.', start: 5.8, speech: 7.0, end: 7.7 },
    ];
    const words: PauseWord[] = cues.flatMap((c) => {
      const ws = c.text.split(' ');
      const total = ws.reduce((n, w) => n + w.replace(/[^a-z]/gi, '').length, 0);
      let t = c.start;
      return ws.map((w) => {
        const d = ((c.end - c.start) * w.replace(/[^a-z]/gi, '').length) / total;
        const word = { text: w, start: round(t), end: round(t + d) };
        t += d;
        return word;
      });
    });
    const silences: SilentSpan[] = cues.map((c) => ({ start: c.speech, end: c.end, levelDb: -127.5 }));
    const a = analysePauses({ words, silences, duration: 7.7 }, OPTIONS);
    expect(a.silences.map((s) => [s.precedingText.split(' ').pop(), s.followingText.split(' ')[0] ?? ''])).toEqual([
      ['channel.', 'Today'],
      ['editing.', 'Thanks'],
      ['watching.', ''],
    ]);
    expect(a.silences.map((s) => s.pauseType)).toEqual(['natural', 'natural', 'technical']);
    // the transcript's words covered the first two silences: their place was estimated
    expect(a.silences.map((s) => s.confidence)).toEqual([0.6, 0.6, 0.71]);
  });

  it('muted stretches are not pauses', () => {
    const a = analyse(TYPICAL, {}, { mutedRanges: [{ start: 8, end: 9 }] });
    // the pause after 'um,' (8.2-9.6) keeps only its unmuted part
    expect(a.silences.find((s) => s.startTime >= 8 && s.startTime < 9.6)).toMatchObject({ startTime: 9, endTime: 9.6 });
  });
});

describe('analysePauses: speech metrics and summary', () => {
  it('counts words per minute over the speech, averages the pauses between words, sums the recommendation', () => {
    const a = analyse(TYPICAL);
    // 28 words from 2.0 s to 16.6 s
    expect(a.speechMetrics).toMatchObject({ wordsPerMinute: Math.round((28 / 14.6) * 60), averagePauseDuration: 1.03, speechPattern: 'steady' });
    expect(a.summary).toEqual({
      total: 8,
      recommended: 3,
      totalDuration: 10.7,
      recommendedDuration: 5.9,
      // dead air keeps 0.1 s next to speech, none at the media's edges; the pause after 'um,' keeps 0.1 s on each side
      estimatedTimeSaved: 1.9 + 1.2 + 2.4,
      minPauseDuration: 0.5,
      autoThresholdApplied: false,
      padding: 0.1,
    });
  });

  it('names the speech pattern from the rate and the spread of pauses', () => {
    const words = (n: number, secondsEach: number, pause: number, pauses: number[] = []) => {
      const pieces: Piece[] = [];
      for (let i = 0; i < n; i++) {
        pieces.push([i % 5 === 4 ? 'end.' : 'word', secondsEach]);
        if (i % 5 === 4 && i < n - 1) pieces.push(pauses[(i - 4) / 5] ?? pause);
      }
      return talk(...pieces);
    };
    expect(analyse(words(40, 0.25, 0.4)).speechMetrics.speechPattern).toBe('fast');
    expect(analyse(words(40, 0.5, 0.6)).speechMetrics.speechPattern).toBe('deliberate');
    expect(analyse(words(40, 0.3, 1.3)).speechMetrics.speechPattern).toBe('deliberate');
    expect(analyse(words(40, 0.3, 0.6)).speechMetrics.speechPattern).toBe('steady');
    expect(analyse(words(40, 0.3, 0.6, [0.25, 1.8, 0.3, 1.6, 0.25, 0.3, 1.7])).speechMetrics.speechPattern).toBe('varied');
  });
});

// ---- silent spans from the energy series ---------------------------------------------------------

/** A level series at 100 frames/s from [dB, frames] runs. */
function series(...runs: [db: number, frames: number][]) {
  const levels: number[] = [];
  for (const [db, frames] of runs) for (let i = 0; i < frames; i++) levels.push(energyByte(db + (db > -100 ? ((i * 7) % 5) - 2 : 0)));
  return { durationSec: levels.length / 100, framesPerSecond: 100, levels: Uint8Array.from(levels) };
}

describe('findSilentSpans', () => {
  it('finds digital silence between speech with edges in the middle of the boundary frames, and at the media edges', () => {
    const s = findSilentSpans(series([-200, 200], [-20, 150], [-200, 80], [-22, 300], [-200, 120]));
    expect(s.spans.map(({ start, end }) => [start, end])).toEqual([
      [0, 2.005],
      [3.495, 4.305],
      [7.295, 8.5],
    ]);
    expect(s.thresholdDb).toBe(-80);
    expect(s.spans[1]!.levelDb).toBe(-127.5);
  });

  it('sets the threshold from the recording: the same talk 30 dB quieter, or over loud room noise, gives the same spans', () => {
    const shape = (gain: number, floor: number) => series([floor, 150], [-20 + gain, 150], [floor, 60], [-20 + gain, 200], [floor, 100]);
    const expected = [
      [0, 1.505],
      [2.995, 3.605],
      [5.595, 6.6],
    ];
    const room = findSilentSpans(shape(0, -60));
    expect(room.spans.map(({ start, end }) => [start, end])).toEqual(expected);
    expect(room.noiseFloorDb).toBeLessThan(-57);
    expect(room.thresholdDb).toBeGreaterThan(room.noiseFloorDb + 5);
    expect(findSilentSpans(shape(-30, -90)).spans.map(({ start, end }) => [start, end])).toEqual(expected);
    // a noisy room at -38 dBFS: a fixed -50 dB threshold would find nothing
    const noisy = findSilentSpans(shape(2, -38));
    expect(noisy.spans.map(({ start, end }) => [start, end])).toEqual(expected);
    expect(noisy.thresholdDb).toBeGreaterThan(-38);
  });

  it('bridges faint clicks inside a silence, but not a loud sound', () => {
    const clicked = findSilentSpans(series([-20, 100], [-60, 50], [-45, 2], [-60, 50], [-20, 100]));
    expect(clicked.spans.map(({ start, end }) => [start, end])).toEqual([[0.995, 2.025]]);
    const spoken = findSilentSpans(series([-20, 100], [-60, 50], [-20, 2], [-60, 50], [-20, 100]));
    expect(spoken.spans).toHaveLength(2);
  });

  it('leaves out gaps shorter than 0.1 s (inside speech)', () => {
    expect(findSilentSpans(series([-20, 100], [-200, 8], [-20, 100], [-200, 30], [-20, 100])).spans.map((s) => Math.round((s.end - s.start) * 1000))).toEqual([310]);
  });

  it('finds nothing in one level throughout, all of it in inaudible quiet, nothing in nothing', () => {
    expect(findSilentSpans(series([-30, 500])).spans).toEqual([]);
    expect(findSilentSpans(series([-200, 300])).spans).toEqual([{ start: 0, end: 3, levelDb: -127.5 }]);
    expect(findSilentSpans({ durationSec: 0, framesPerSecond: 100, levels: new Uint8Array(0) }).spans).toEqual([]);
  });
});

describe('padRemovalRanges', () => {
  const o = { padding: 0.1, duration: 20 };

  it('keeps the padding of silence on each side that touches speech', () => {
    expect(padRemovalRanges([{ start: 5, end: 6.4 }], o)).toEqual([{ start: 5.1, end: 6.3 }]);
  });

  it('keeps none at the start and the end of the media', () => {
    expect(padRemovalRanges([{ start: 0, end: 2 }, { start: 17.5, end: 20 }], o)).toEqual([
      { start: 0, end: 1.9 },
      { start: 17.6, end: 20 },
    ]);
    expect(padRemovalRanges([{ start: 0.05, end: 19.95 }], o)).toEqual([{ start: 0.05, end: 19.95 }]);
    // a range past the media's end (audio a little longer than the video) ends with the media
    expect(padRemovalRanges([{ start: 18, end: 20.02 }], o)).toEqual([{ start: 18.1, end: 20 }]);
  });

  it('keeps a quarter of a pause on each side when it is shorter than four paddings, and drops empty ranges', () => {
    expect(padRemovalRanges([{ start: 1, end: 1.2 }], o)).toEqual([{ start: 1.05, end: 1.15 }]);
    expect(padRemovalRanges([{ start: 3, end: 3 }, { start: 4, end: 3.5 }], o)).toEqual([]);
    expect(padRemovalRanges([{ start: 5, end: 6 }], { ...o, padding: 0 })).toEqual([{ start: 5, end: 6 }]);
  });

  it('is what estimatedTimeSaved counts', () => {
    expect(PAUSE_RULES.thresholdToleranceSec).toBe(0.01);
    const a = analyse(TYPICAL);
    const removed = a.silences.filter((s) => s.recommendation === 'remove').map((s) => ({ start: s.startTime, end: s.endTime }));
    const saved = padRemovalRanges(removed, { padding: 0.1, duration: TYPICAL.duration }).reduce((x, r) => x + r.end - r.start, 0);
    expect(a.summary.estimatedTimeSaved).toBeCloseTo(saved, 6);
  });
});
