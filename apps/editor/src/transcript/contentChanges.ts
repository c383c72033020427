/**
 * The editor's content and search as plain functions over its snapshot: the patch new content
 * applies (an edit, undo, redo or rollback), the history entry of a text edit, the reset when the
 * server's words change, the filler highlights and the search. EditorStore applies them.
 */
import type { Transcript } from '@wordcut/contracts';
import { EMPTY_HISTORY, EMPTY_SELECTION, fillerSet, findMatches, pushEntry, remapPending, wordMarks } from '@wordcut/editor-core';
import type { EditOperation, History, PendingCut, PendingMute, SearchMatch } from '@wordcut/editor-core';
import type { TranscriptContent } from '@wordcut/transcript';
import { clampTo, foundMask } from './editorSnapshot';
import type { EditorSnapshot } from './editorSnapshot';
import { newHistoryId } from './markChanges';

/** What the editor takes of a server transcript. */
export type ServerTranscript = Pick<Transcript, 'id' | 'version' | 'words' | 'paragraphs' | 'fillerWords'>;

/** The history with a text edit from `before` to `after` pushed on it. */
export function editHistory(history: History, operation: EditOperation, description: string, before: TranscriptContent, after: TranscriptContent): History {
  return pushEntry(history, {
    id: newHistoryId(),
    timestamp: Date.now(),
    operation,
    description,
    beforeState: before,
    afterState: after,
  });
}

/**
 * The patch putting `content` in place: pending marks follow the words (remapped when the words
 * changed), per-word masks keep their length, the selection stays within the words.
 */
export function contentPatch(current: EditorSnapshot, content: TranscriptContent, extra: Partial<EditorSnapshot>): Partial<EditorSnapshot> {
  const count = content.words.length;
  const sameWords = content.words === current.content.words;
  const pendingCuts = sameWords ? current.pendingCuts : remapPending(current.pendingCuts as PendingCut[], content.words);
  const pendingMutes = sameWords ? current.pendingMutes : remapPending(current.pendingMutes as PendingMute[], content.words);
  return {
    ...extra,
    content,
    pendingCuts,
    pendingMutes,
    marks: sameWords ? current.marks : wordMarks(pendingCuts as PendingCut[], pendingMutes as PendingMute[], count),
    fillers: current.fillers.length === count ? current.fillers : fillerSet([], count),
    found: current.found.length === count ? current.found : new Uint8Array(count),
    selection: sameWords ? current.selection : clampTo(current.selection, count),
    anchor: current.anchor !== null && current.anchor < count ? current.anchor : null,
    revision: current.revision + 1,
  };
}

/** A server transcript with other words (a cut re-timed them, another tab): what was made on the old ones no longer applies. */
export function replacedTranscript(previous: EditorSnapshot, transcript: Pick<ServerTranscript, 'id' | 'version'>, content: TranscriptContent): EditorSnapshot {
  const count = content.words.length;
  return {
    ...previous,
    transcriptId: transcript.id,
    version: transcript.version,
    content,
    marks: new Uint8Array(count),
    fillers: fillerSet(content.fillerWords, count),
    fillerCount: content.fillerWords.length,
    found: new Uint8Array(count),
    selection: EMPTY_SELECTION,
    anchor: null,
    pendingCuts: [],
    pendingMutes: [],
    history: EMPTY_HISTORY,
    keepPreview: null,
    keepCuts: [],
    revision: previous.revision + 1,
  };
}

/** The filler highlights of the current filler list. */
export function fillerPatch(content: TranscriptContent): Partial<EditorSnapshot> {
  return { fillers: fillerSet(content.fillerWords, content.words.length), fillerCount: content.fillerWords.length };
}

/** The search for `query`; `keepCurrent` stays on the current match (clamped) instead of the first. */
export function searchPatch(s: EditorSnapshot, query: string, keepCurrent: boolean): Partial<EditorSnapshot> {
  const matches = findMatches(s.content.words, query);
  const current = matches.length === 0 ? -1 : keepCurrent ? Math.min(Math.max(0, s.search.current), matches.length - 1) : 0;
  return { search: { query, matches, current }, found: foundMask(matches, current, s.content.words.length) };
}

/** The next (1) or previous (-1) match, wrapping around; null without matches. */
export function searchStep(s: EditorSnapshot, direction: 1 | -1): { patch: Partial<EditorSnapshot>; match: SearchMatch } | null {
  const { search, content } = s;
  if (search.matches.length === 0) return null;
  const current = (search.current + direction + search.matches.length) % search.matches.length;
  return { patch: { search: { ...search, current }, found: foundMask(search.matches, current, content.words.length) }, match: search.matches[current]! };
}
