/**
 * The editor's pending marks as plain functions over its snapshot: what each mark command
 * changes, the history entry recording it, and the snapshot patch putting marks in place.
 * EditorStore applies them; nothing here holds state but the history id counter.
 */
import { markCuts, markMutes, marksEntry, pushEntry, settleMarks, unmarkCuts, unmarkMutes, wordMarks } from '@wordcut/editor-core';
import type { History, MarkOperation, MarkSet, PendingCut, PendingMute, TimeRange, WordRange } from '@wordcut/editor-core';
import type { MuteLevel } from '@wordcut/edit-list';
import type { EditorSnapshot } from './editorSnapshot';

let historyIdCounter = 0;
/** A history entry id unique in this page. */
export const newHistoryId = () => `h${Date.now().toString(36)}${(historyIdCounter++).toString(36)}`;

/** A user change of the marks: one undoable history entry. */
export interface MarkChange {
  operation: MarkOperation;
  description: string;
  changes: Partial<MarkSet>;
}

/** The words at `indices`, in order and quoted, cut to 40 characters (for history descriptions). */
export function quoteWords(snapshot: EditorSnapshot, indices: readonly number[]): string {
  const { words } = snapshot.content;
  const sorted = [...indices].sort((a, b) => a - b);
  const text = sorted.map((i) => words[i]?.text ?? '').join(' ').trim();
  return `'${text.length > 40 ? `${text.slice(0, 39)}…` : text}'`;
}

/** Starts (with the ranges it would cut) or ends (null) the keep-selection preview. */
export function keepPreviewChange(s: EditorSnapshot, range: WordRange | null, cuts: readonly TimeRange[]): MarkChange {
  const keep = range ? { range, cuts } : null;
  return range
    ? { operation: 'keep-preview', description: `Keep ${quoteWords(s, [range.start, range.end])}`, changes: { keep } }
    : { operation: 'cancel-keep', description: 'Cancel keep preview', changes: { keep } };
}

export function markCutsChange(s: EditorSnapshot, indices: readonly number[]): MarkChange {
  return { operation: 'mark-cut', description: `Mark ${quoteWords(s, indices)} for cutting`, changes: { cuts: markCuts(s.pendingCuts as PendingCut[], s.content.words, indices) } };
}

export function unmarkCutsChange(s: EditorSnapshot, indices: readonly number[]): MarkChange {
  return { operation: 'unmark-cut', description: `Unmark ${quoteWords(s, indices)}`, changes: { cuts: unmarkCuts(s.pendingCuts as PendingCut[], s.content.words, indices) } };
}

/** Cancel Cuts: every cut mark goes. */
export function clearCutsChange(): MarkChange {
  return { operation: 'clear-cuts', description: 'Cancel cuts', changes: { cuts: [] } };
}

export function markMutesChange(s: EditorSnapshot, indices: readonly number[], level: MuteLevel): MarkChange {
  return { operation: 'mute', description: `Mute ${quoteWords(s, indices)} (${level})`, changes: { mutes: markMutes(s.pendingMutes as PendingMute[], s.content.words, indices, level) } };
}

export function unmarkMutesChange(s: EditorSnapshot, indices: readonly number[]): MarkChange {
  return { operation: 'unmute', description: `Unmute ${quoteWords(s, indices)}`, changes: { mutes: unmarkMutes(s.pendingMutes as PendingMute[], s.content.words, indices) } };
}

/** Clear Mutes: every mute mark goes. */
export function clearMutesChange(): MarkChange {
  return { operation: 'clear-mutes', description: 'Clear mutes', changes: { mutes: [] } };
}

/** Restore word: the words lose their cut and mute marks, in one step. */
export function restoreChange(s: EditorSnapshot, indices: readonly number[]): MarkChange {
  return {
    operation: 'restore',
    description: `Restore ${quoteWords(s, indices)}`,
    changes: {
      cuts: unmarkCuts(s.pendingCuts as PendingCut[], s.content.words, indices),
      mutes: unmarkMutes(s.pendingMutes as PendingMute[], s.content.words, indices),
    },
  };
}

/** The marks now: pending cuts, pending mutes and the keep preview. */
export function marksNow(s: EditorSnapshot): MarkSet {
  return { cuts: s.pendingCuts, mutes: s.pendingMutes, keep: s.keepPreview ? { range: s.keepPreview, cuts: s.keepCuts } : null };
}

/** The marks after `change` and the history recording it; null when it changes nothing. */
export function recordedMarks(s: EditorSnapshot, change: MarkChange): { marks: MarkSet; history: History } | null {
  const before = marksNow(s);
  const after: MarkSet = { ...before, ...change.changes };
  if (JSON.stringify(before) === JSON.stringify(after)) return null;
  const entry = marksEntry({ id: newHistoryId(), timestamp: Date.now(), operation: change.operation, description: change.description }, s.content, before, after);
  return { marks: after, history: pushEntry(s.history, entry) };
}

/** A job took one kind of marks: they leave the marks (cleared) and the history. */
export function settledMarks(s: EditorSnapshot, kind: keyof MarkSet): { marks: Partial<MarkSet>; history: History } {
  const marks: Partial<MarkSet> = kind === 'keep' ? { keep: null } : kind === 'cuts' ? { cuts: [] } : { mutes: [] };
  return { marks, history: settleMarks(s.history, kind) };
}

/** The patch putting marks in place (a field left out, or a keep stored before keeps were recorded, stays as it is). */
export function marksPatch(current: EditorSnapshot, marks: Partial<MarkSet>, extra: Partial<EditorSnapshot> = {}): Partial<EditorSnapshot> {
  const pendingCuts = marks.cuts ?? current.pendingCuts;
  const pendingMutes = marks.mutes ?? current.pendingMutes;
  const { keep } = marks;
  return {
    ...extra,
    pendingCuts,
    pendingMutes,
    ...(keep === undefined ? {} : { keepPreview: keep?.range ?? null, keepCuts: keep?.cuts ?? [] }),
    marks:
      pendingCuts === current.pendingCuts && pendingMutes === current.pendingMutes
        ? current.marks
        : wordMarks(pendingCuts as PendingCut[], pendingMutes as PendingMute[], current.content.words.length),
  };
}
