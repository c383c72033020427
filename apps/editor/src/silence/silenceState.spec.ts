import type { SilenceSegment } from '@wordcut/contracts';
import {
  INITIAL_SILENCE_STATE,
  SilenceStore,
  clampMinPause,
  confirmationList,
  decisionOf,
  estimatedTimeSaved,
  followingContext,
  markedForRemoval,
  pendingSilencesOf,
  precedingContext,
  removalMarksByWord,
  removalRequest,
} from './silenceState';
import { analysisOf, pause } from './testing.spec-helpers';

/** The silence panel's derived values: decisions over recommendations, ranges, time saved, the confirmation list, context cuts. */

const state = (silences: SilenceSegment[], decisions: Record<string, 'remove' | 'keep'> = {}) => ({ analysis: analysisOf(silences), decisions });

describe('the slider', () => {
  it('holds values to 0.1..10 s on 0.1 s steps, default 2', () => {
    expect(INITIAL_SILENCE_STATE.minPauseDuration).toBe(2);
    expect(clampMinPause(0)).toBe(0.1);
    expect(clampMinPause(12)).toBe(10);
    expect(clampMinPause(1.26)).toBe(1.3);
    expect(clampMinPause(0.30000000000000004)).toBe(0.3);
    expect(clampMinPause(Number.NaN)).toBe(2);
  });
});

describe('decisions', () => {
  const silences = [pause(0, 2, 'remove'), pause(5, 6, 'keep'), pause(9, 10.4, 'remove')];

  it("follow the server's recommendation until the user chooses", () => {
    const s = state(silences, { 'pause-9000': 'keep', 'pause-5000': 'remove' });
    expect(silences.map((p) => decisionOf(s, p))).toEqual(['remove', 'remove', 'keep']);
    expect(markedForRemoval(s).map((p) => p.id)).toEqual(['pause-0', 'pause-5000']);
  });

  it('send the marked pauses as measured, and publish every pause with its decision to the player', () => {
    const s = state(silences, { 'pause-0': 'keep' });
    expect(removalRequest(s)).toEqual([{ start: 9, end: 10.4 }]);
    expect(pendingSilencesOf(s)).toEqual([
      { startTime: 0, endTime: 2, recommendation: 'keep' },
      { startTime: 5, endTime: 6, recommendation: 'keep' },
      { startTime: 9, endTime: 10.4, recommendation: 'remove' },
    ]);
  });

  it('estimate the time saved with the padding kept next to speech (none at the start)', () => {
    // 0..2 at the start keeps nothing before: 2 - 0.1; 9..10.4 keeps 0.1 on each side: 1.2
    expect(estimatedTimeSaved(state(silences), 30)).toBe(3.1);
    expect(estimatedTimeSaved(state(silences, { 'pause-0': 'keep', 'pause-9000': 'keep' }), 30)).toBe(0);
  });

  it("list the first five in the confirmation, then 'and n more'", () => {
    const many = Array.from({ length: 8 }, (_, i) => pause(i * 3, i * 3 + 2, 'remove'));
    const list = confirmationList(state(many));
    expect(list.shown.map((p) => p.startTime)).toEqual([0, 3, 6, 9, 12]);
    expect(list.more).toBe(3);
    expect(confirmationList(state(many.slice(0, 4))).more).toBe(0);
  });
});

describe('context text', () => {
  it('is cut at 60 characters, keeping the words next to the pause', () => {
    const long = 'one two three four five six seven eight nine ten eleven twelve thirteen';
    const before = precedingContext(long);
    const after = followingContext(long);
    expect(before.length).toBeLessThanOrEqual(60);
    expect(after.length).toBeLessThanOrEqual(60);
    expect(before.startsWith('…')).toBe(true);
    expect(before.endsWith('thirteen')).toBe(true);
    expect(after.startsWith('one two')).toBe(true);
    expect(after.endsWith('…')).toBe(true);
    expect(precedingContext('short text')).toBe('short text');
  });
});

describe('transcript marks', () => {
  const words = [
    { start: 2, end: 2.5 },
    { start: 2.6, end: 3.4 },
    { start: 4.2, end: 5 },
    { start: 5.1, end: 6 },
  ];
  it('put each pause marked remove before the word after it (after the last word at words.length)', () => {
    const s = state([pause(0, 2, 'remove'), pause(3.4, 4.2, 'remove'), pause(6, 8, 'remove'), pause(5, 5.1, 'keep')]);
    expect([...removalMarksByWord(words, s)]).toEqual([
      [0, 2],
      [2, 0.8],
      [4, 2],
    ]);
  });
});

describe('the store', () => {
  it('notifies only on a real change', () => {
    const store = new SilenceStore('v1');
    const listener = jest.fn();
    store.subscribe(listener);
    store.update({ panelOpen: false });
    expect(listener).not.toHaveBeenCalled();
    store.update({ panelOpen: true });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.videoId).toBe('v1');
  });
});
