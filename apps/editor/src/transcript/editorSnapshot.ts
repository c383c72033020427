import type { Transcript } from '@wordcut/contracts';
import { EMPTY_HISTORY, EMPTY_SELECTION, deltasBetween, fillerSet, remapPending, wordMarks } from '@wordcut/editor-core';
import type { History, PendingCut, PendingMute, SearchMatch, Selection, TimeRange, WordRange } from '@wordcut/editor-core';
import type { TranscriptContent } from '@wordcut/transcript';
import type { StoredEdits } from './editPersistence';
import { fullReplacement } from './saveQueue';
import type { TranscriptSavePayload } from './saveQueue';

/** The transcript editor's state (what EditorStore holds), and the pure steps it is built from. */

export interface SearchState {
  query: string;
  matches: readonly SearchMatch[];
  /** index into matches, -1 when none */
  current: number;
}

export interface EditorSnapshot {
  transcriptId: string;
  /** the version the server confirmed last */
  version: number;
  content: TranscriptContent;
  /** per word: pending cut / mute level bits (see wordMarks) */
  marks: Uint8Array;
  /** per word: 1 when a filler (updated FILLER_RECOMPUTE_DEBOUNCE_MS after an edit) */
  fillers: Uint8Array;
  fillerCount: number;
  /** per word: 1 in a search result, 2 in the current one */
  found: Uint8Array;
  selection: Selection;
  /** the word shift-extension grows from */
  anchor: number | null;
  pendingCuts: readonly PendingCut[];
  pendingMutes: readonly PendingMute[];
  history: History;
  search: SearchState;
  /** saves sent and not answered */
  saving: number;
  /** bumps on every content change (cheap equality for effects) */
  revision: number;
  /** keep-selection preview: the words that would stay (the rest is dimmed) */
  keepPreview: WordRange | null;
  /** the time ranges the keep preview cuts (before and after the kept words), fixed when it started */
  keepCuts: readonly TimeRange[];
}

/** The state of a freshly opened transcript, with the edits kept from an earlier visit (if any). */
export function initialSnapshot(transcriptId: string, version: number, content: TranscriptContent, restored: StoredEdits | null): EditorSnapshot {
  const count = content.words.length;
  const pendingCuts = restored ? remapPending(restored.pendingCuts, content.words) : [];
  const pendingMutes = restored ? remapPending(restored.pendingMutes, content.words) : [];
  return {
    transcriptId,
    version,
    content,
    marks: wordMarks(pendingCuts, pendingMutes, count),
    fillers: fillerSet(content.fillerWords, count),
    fillerCount: content.fillerWords.length,
    found: new Uint8Array(count),
    selection: EMPTY_SELECTION,
    anchor: null,
    pendingCuts,
    pendingMutes,
    history: restored?.history ?? EMPTY_HISTORY,
    search: { query: '', matches: [], current: -1 },
    saving: 0,
    revision: 0,
    keepPreview: null,
    keepCuts: [],
  };
}

export function contentOf(transcript: Pick<Transcript, 'words' | 'paragraphs' | 'fillerWords'>): TranscriptContent {
  return { words: transcript.words, paragraphs: transcript.paragraphs, fillerWords: transcript.fillerWords };
}

/** An undo/redo move: word deltas when they express it exactly, else a full replacement. */
export function movePayload(from: TranscriptContent, to: TranscriptContent): TranscriptSavePayload {
  const deltas = deltasBetween(from, to);
  if (deltas && deltas.length > 0) return { wordDeltas: deltas };
  return fullReplacement(to);
}

/** Per word: 2 in the current search result, 1 in another, 0 elsewhere. */
export function foundMask(matches: readonly SearchMatch[], current: number, count: number): Uint8Array {
  const mask = new Uint8Array(count);
  matches.forEach((match, k) => {
    for (let i = match.first; i <= match.last && i < count; i++) mask[i] = k === current ? 2 : 1;
  });
  return mask;
}

/** The selection without words past `count` (the same object when nothing changed). */
export function clampTo(selection: Selection, count: number): Selection {
  const out = selection.filter((r) => r.start < count).map((r) => (r.end < count ? r : { start: r.start, end: count - 1 }));
  return out.length === selection.length && out.every((r, i) => r === selection[i]) ? selection : out;
}

export function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
