import fc from 'fast-check';
import type { TranscriptContent } from '@wordcut/transcript';
import {
  EMPTY_HISTORY,
  HISTORY_LIMIT,
  applyEdit,
  contentFingerprint,
  deserializeHistory,
  marksEntry,
  settleMarks,
  originalState,
  pushEntry,
  redoCount,
  redoStep,
  serializeHistory,
  undoCount,
  undoStep,
  textEntryCount,
  versionEntry,
  type History,
  type HistoryEntry,
} from './index';
import { contentArb, editStepArb, longTranscript, statesAlong, transcript } from './testing.spec-helpers';

function entry(k: number, beforeState: TranscriptContent, afterState: TranscriptContent): HistoryEntry {
  return { id: `e${k}`, timestamp: 1_700_000_000_000 + k, operation: 'edit-word', description: `edit ${k}`, beforeState, afterState };
}

/** A history of consecutive edits through the states, all applied. */
function historyOf(states: readonly TranscriptContent[]): History {
  let h = EMPTY_HISTORY;
  for (let k = 1; k < states.length; k++) h = pushEntry(h, entry(k, states[k - 1]!, states[k]!));
  return h;
}

const base = transcript('Hello there friend.', 'How are you');
const edited = (text: string, from: TranscriptContent = base) => applyEdit(from, [{ word_order: 0, changes: { text } }]);

describe('history stack', () => {
  it('starts empty', () => {
    expect(EMPTY_HISTORY).toEqual({ entries: [], index: 0 });
    expect(undoStep(EMPTY_HISTORY)).toBeNull();
    expect(redoStep(EMPTY_HISTORY)).toBeNull();
    expect(undoCount(EMPTY_HISTORY)).toBe(0);
    expect(redoCount(EMPTY_HISTORY)).toBe(0);
    expect(originalState(EMPTY_HISTORY)).toBeNull();
  });

  it('undoes to the before state and redoes to the after state', () => {
    const a = edited('Hi');
    const b = edited('Hey', a);
    const h = historyOf([base, a, b]);
    expect([undoCount(h), redoCount(h)]).toEqual([2, 0]);

    const u1 = undoStep(h)!;
    expect(u1.entry.beforeState).toBe(a);
    const u2 = undoStep(u1.history)!;
    expect(u2.entry.beforeState).toBe(base);
    expect(undoStep(u2.history)).toBeNull();
    expect([undoCount(u2.history), redoCount(u2.history)]).toEqual([0, 2]);

    const r1 = redoStep(u2.history)!;
    expect(r1.entry.afterState).toBe(a);
    expect(r1.history.index).toBe(1);
    expect(redoStep(redoStep(r1.history)!.history)).toBeNull();
    expect(originalState(h)).toBe(base);
  });

  it('drops the redo branch when an edit follows an undo', () => {
    const a = edited('Hi');
    const b = edited('Hey', a);
    const undone = undoStep(historyOf([base, a, b]))!.history;
    const c = edited('Yo', a);
    const h = pushEntry(undone, entry(9, a, c));
    expect(h.entries.map((e) => e.id)).toEqual(['e1', 'e9']);
    expect([undoCount(h), redoCount(h)]).toEqual([2, 0]);
  });

  it('keeps only the newest 50 entries', () => {
    expect(HISTORY_LIMIT).toBe(50);
    let h = EMPTY_HISTORY;
    for (let k = 1; k <= 53; k++) h = pushEntry(h, entry(k, base, base));
    expect(h.entries).toHaveLength(50);
    expect(h.index).toBe(50);
    expect(h.entries[0]!.id).toBe('e4');
    expect(h.entries[49]!.id).toBe('e53');
  });
});

describe('contentFingerprint', () => {
  it('is equal for equal content and differs for any edited field', () => {
    const fp = contentFingerprint(base);
    expect(fp).toMatch(/^[0-9a-f]{8}$/);
    expect(contentFingerprint(structuredClone(base))).toBe(fp);
    const variants: TranscriptContent[] = [
      edited('hello'),
      applyEdit(base, [{ word_order: 2, changes: { start: 1.001 } }]),
      applyEdit(base, [{ word_order: 2, changes: { end: 1.4000001 } }]),
      applyEdit(base, [{ word_order: 2, changes: { confidence: 0.5 } }]),
      applyEdit(base, [{ word_order: 5, delete: true }]),
      { ...base, fillerWords: [1] },
      transcript('Hello there friend. How are you'),
      transcript('Hello there', 'friend. How are you'),
    ];
    const fingerprints = new Set(variants.map(contentFingerprint));
    expect(fingerprints.size).toBe(variants.length);
    expect(fingerprints.has(fp)).toBe(false);
  });

  it('ignores derived numbering and paragraph times', () => {
    const renumbered = { ...base, words: base.words.map((w) => ({ ...w, word_order: 0, group_number: 7 })), paragraphs: base.paragraphs.map((p) => ({ ...p, start: 0, end: 0 })) };
    expect(contentFingerprint(renumbered)).toBe(contentFingerprint(base));
  });
});

describe('history persistence', () => {
  it('round-trips a small history at every index', () => {
    const a = edited('Hi');
    const b = applyEdit(a, [{ word_order: 3, delete: true }]);
    const c = applyEdit(b, [{ word_order: -1, insertAfter: [{ text: 'Well,', start: 0, end: 0, confidence: 0.9 }] }]);
    const states = [base, a, b, c];
    const full = historyOf(states);
    for (let index = 0; index <= 3; index++) {
      const h = { ...full, index };
      const restored = deserializeHistory(serializeHistory(h, states[index]!), states[index]!);
      expect(restored).toEqual(h);
    }
  });

  it('stores metadata and rebuilds states whose entries do not chain', () => {
    const a = edited('Hi');
    const other = transcript('Completely different words', 'here');
    const h: History = {
      entries: [
        { id: 'x', timestamp: 5, operation: 'paste', description: 'Paste 2 words', beforeState: base, afterState: a },
        { id: 'y', timestamp: 6, operation: 'detect-fillers', description: 'Detect fillers', beforeState: other, afterState: { ...other, fillerWords: [0, 3] } },
      ],
      index: 1,
    };
    const json = serializeHistory(h, a);
    expect(JSON.parse(json)).toMatchObject({ v: 1, index: 1, fingerprint: contentFingerprint(a) });
    expect(deserializeHistory(json, a)).toEqual(h);
  });

  it('returns null for invalid JSON or a transcript that changed elsewhere', () => {
    const a = edited('Hi');
    const json = serializeHistory(historyOf([base, a]), a);
    expect(deserializeHistory(json, base)).toBeNull();
    expect(deserializeHistory('not json', a)).toBeNull();
    expect(deserializeHistory('null', a)).toBeNull();
    expect(deserializeHistory(JSON.stringify({ ...JSON.parse(json), v: 2 }), a)).toBeNull();
    expect(deserializeHistory(JSON.stringify({ ...JSON.parse(json), index: 2 }), a)).toBeNull();
    expect(deserializeHistory(JSON.stringify({ ...JSON.parse(json), patches: [] }), a)).toBeNull();
    const badOperation = JSON.parse(json);
    badOperation.entries[0].operation = 'explode';
    expect(deserializeHistory(JSON.stringify(badOperation), a)).toBeNull();
  });

  it('returns null when a patch does not fit the transcript it is applied to', () => {
    const a = edited('Hi');
    const b = edited('Hey', a);
    const json = JSON.parse(serializeHistory(historyOf([base, a, b]), b));
    // the last patch claims to have replaced a different word
    json.patches[2].w[2][0][0] = 'Howdy';
    expect(deserializeHistory(JSON.stringify(json), b)).toBeNull();
  });

  it('keeps an empty history', () => {
    expect(deserializeHistory(serializeHistory(EMPTY_HISTORY, base), base)).toEqual(EMPTY_HISTORY);
  });

  it('fits a 30,000-word transcript with 50 edits into a few kilobytes', () => {
    const long = longTranscript(30_000);
    const kinds = ['change', 'delete', 'insert', 'retime'] as const;
    const steps = Array.from({ length: HISTORY_LIMIT }, (_, k) => ({
      kind: kinds[k % kinds.length]!,
      at: (k * 7919) % 29_000,
      size: 1 + (k % 3),
      text: 'edited',
    }));
    const states = statesAlong(long, steps);
    const h = historyOf(states);
    const current = states[states.length - 1]!;
    const json = serializeHistory(h, current);
    expect(json.length).toBeLessThan(20_000);
    const restored = deserializeHistory(json, current)!;
    expect(restored.index).toBe(HISTORY_LIMIT);
    // every state differs and is rebuilt: all by fingerprint, three in full (as JSON: a deep
    // toEqual of 30,000 words is slow)
    const fingerprints = states.map(contentFingerprint);
    expect(new Set(fingerprints).size).toBe(states.length);
    const rebuilt = [restored.entries[0]!.beforeState, ...restored.entries.map((e) => e.afterState)];
    expect(rebuilt.map(contentFingerprint)).toEqual(fingerprints);
    for (const k of [0, 25, 50]) expect(JSON.stringify(rebuilt[k]) === JSON.stringify(states[k])).toBe(true);
  });

  it('round-trips random edit chains (property)', () => {
    fc.assert(
      fc.property(contentArb, fc.array(editStepArb, { maxLength: 12 }), fc.nat(), (start, steps, pick) => {
        const states = statesAlong(start, steps);
        const index = pick % states.length;
        const h = { ...historyOf(states), index };
        const restored = deserializeHistory(serializeHistory(h, states[index]!), states[index]!);
        expect(restored).not.toBeNull();
        expect(restored!.index).toBe(index);
        restored!.entries.forEach((e, k) => {
          expect(e.beforeState).toEqual(states[k]);
          expect(e.afterState).toEqual(states[k + 1]);
        });
        expect(restored!.entries.map((e) => e.id)).toEqual(h.entries.map((e) => e.id));
      }),
      { numRuns: 150 },
    );
  });

});

describe('marks entries', () => {
  const cut = (i: number) => ({ id: `cut-${i}-${i}`, wordIndices: [i], startTime: i, endTime: i + 0.5, text: 'w' });
  const mute = (i: number) => ({ ...cut(i), id: `mute-${i}-${i}`, level: 'whisper' as const });
  const meta = (k: number, operation: HistoryEntry['operation']) => ({ id: `m${k}`, timestamp: k, operation, description: `m ${k}` });

  it('keeps the text and swaps the marks', () => {
    const e = marksEntry(meta(1, 'mark-cut'), base, { cuts: [], mutes: [] }, { cuts: [cut(1)], mutes: [] });
    expect(e.beforeState).toBe(base);
    expect(e.afterState).toBe(base);
    const h = pushEntry(EMPTY_HISTORY, e);
    expect(undoCount(h)).toBe(1);
    expect(undoStep(h)!.entry.marks!.before.cuts).toEqual([]);
  });

  it('settling one kind drops the entries that change nothing else, and counts the undo index down', () => {
    let h = EMPTY_HISTORY;
    h = pushEntry(h, marksEntry(meta(1, 'mute'), base, { cuts: [], mutes: [] }, { cuts: [], mutes: [mute(1)] }));
    h = pushEntry(h, entry(2, base, edited('Hi')));
    h = pushEntry(h, marksEntry(meta(3, 'mark-cut'), edited('Hi'), { cuts: [], mutes: [mute(1)] }, { cuts: [cut(0)], mutes: [mute(1)] }));
    const settled = settleMarks(h, 'mutes');
    expect(settled.entries.map((e) => e.operation)).toEqual(['edit-word', 'mark-cut']);
    expect(settled.index).toBe(2);
    expect(settled.entries[1]!.marks).toEqual({ before: { cuts: [], mutes: [] }, after: { cuts: [cut(0)], mutes: [] } });
  });

  it('round-trips through storage with their marks', () => {
    let h = EMPTY_HISTORY;
    const a = edited('Hi');
    h = pushEntry(h, entry(1, base, a));
    h = pushEntry(h, marksEntry(meta(2, 'mute'), a, { cuts: [], mutes: [] }, { cuts: [], mutes: [mute(1)] }));
    const back = deserializeHistory(serializeHistory(h, a), a)!;
    expect(back.index).toBe(2);
    expect(back.entries[1]!.marks).toEqual(h.entries[1]!.marks);
    expect(back.entries[1]!.beforeState).toBe(a);
    expect(back.entries[0]!.marks).toBeUndefined();
  });

  describe('version entries (a processing job, a revert)', () => {
    // the render cut the second paragraph: fewer words, retimed
    const processed = transcript('Hello there friend.');
    const none = { cuts: [], mutes: [] };
    const process = (marks = { before: { cuts: [], mutes: [mute(5)] }, after: { cuts: [], mutes: [mute(2)] } }) =>
      versionEntry(meta(9, 'process'), base, processed, marks, { before: 3, after: 4 });

    it('undo steps back to the version before with its words and marks, redo forward', () => {
      let h = pushEntry(EMPTY_HISTORY, entry(1, edited('Hi'), base));
      h = pushEntry(h, process());
      expect(textEntryCount(h)).toBe(2);
      const back = undoStep(h)!;
      expect(back.entry.version).toEqual({ before: 3, after: 4 });
      expect(back.entry.beforeState).toBe(base);
      expect(back.entry.marks!.before.mutes).toEqual([mute(5)]);
      expect(redoStep(back.history)!.entry.afterState).toBe(processed);
    });

    it('survive the settling of the marks they carry (the version is still a step)', () => {
      const h = pushEntry(EMPTY_HISTORY, process({ before: none, after: none }));
      expect(settleMarks(h, 'mutes')).toEqual(h);
      expect(settleMarks(pushEntry(EMPTY_HISTORY, process()), 'mutes').entries).toHaveLength(1);
    });

    it('round-trip through storage with their versions, across the change of every word', () => {
      let h = pushEntry(EMPTY_HISTORY, entry(1, edited('Hi'), base));
      h = pushEntry(h, process());
      h = pushEntry(h, entry(2, processed, edited('Bye', processed)));
      for (const index of [1, 2, 3]) {
        const at = { ...h, index };
        const current = index === 3 ? h.entries[2]!.afterState : h.entries[index]!.beforeState;
        const back = deserializeHistory(serializeHistory(at, current), current)!;
        expect(back.index).toBe(index);
        expect(back.entries[1]!.version).toEqual({ before: 3, after: 4 });
        expect(contentFingerprint(back.entries[1]!.beforeState)).toBe(contentFingerprint(base));
        expect(contentFingerprint(back.entries[0]!.beforeState)).toBe(contentFingerprint(edited('Hi')));
      }
    });

    it('past the storage budget the oldest applied entries are left out, and what stays still rebuilds', () => {
      const long = longTranscript(3000);
      const after = transcript(long.words.slice(0, 1500).map((w) => w.text).join(' '));
      let h = pushEntry(EMPTY_HISTORY, entry(1, edited('Hi', long), long));
      h = pushEntry(h, versionEntry(meta(2, 'process'), long, after, { before: none, after: none }, { before: 1, after: 2 }));
      h = pushEntry(h, entry(3, after, edited('Bye', after)));
      const current = h.entries[2]!.afterState;
      const full = serializeHistory(h, current);
      const small = serializeHistory(h, current, Math.floor(full.length / 3));
      expect(small.length).toBeLessThanOrEqual(Math.floor(full.length / 3));
      const back = deserializeHistory(small, current)!;
      expect(back.entries.map((e) => e.operation)).toEqual(['edit-word']);
      expect(back.index).toBe(1);
      expect(deserializeHistory(full, current)!.entries).toHaveLength(3);
    });
  });
});
