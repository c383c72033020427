import type { MuteLevel } from '@wordcut/edit-list';
import {
  KEEP_MESSAGES,
  checkKeepSelection,
  deleteWordsDeltas,
  flaggedFillers,
  findSimilarWords,
  isCutMark,
  isOutOfSync,
  paragraphSegments,
  pasteDeltas,
  replaceMatchDeltas,
  replaceRunDeltas,
  selectRange,
  selectedIndices,
  selectionBounds,
  selectionText,
} from '@wordcut/editor-core';
import type { SimilarWordAnalysis } from '@wordcut/editor-core';
import { lastWordStartingAtOrBefore } from '@wordcut/transcript';
import type { ToastInput } from '@wordcut/ui';
import type { PlaybackStore } from '../shared/playback';
import { REFRESH_ACTION } from '../shared/refreshPage';
import type { WorkspaceStore } from '../shared/workspace';
import type { EditorStore } from './editorStore';

/**
 * The transcript editor's commands, as plain functions over the page's stores: what a toolbar
 * button, a menu item or a shortcut does. The components only decide when to call them.
 */

/** What the commands work on. */
export interface EditorCommandContext {
  editor: EditorStore;
  workspace: WorkspaceStore;
  playback: Pick<PlaybackStore, 'seek' | 'getSnapshot'>;
  /** the word holding the transcript's keyboard focus (its roving tab stop), when the list is mounted */
  focusedWord: () => number | undefined;
  toast: (input: ToastInput) => void;
  /** puts text on the clipboard; a refusal is ignored */
  writeClipboard: (text: string) => void;
  /** undo / redo across versions as well (versionCommands.stepHistory); without it, local steps only */
  stepHistory?: (direction: 'undo' | 'redo') => void;
}

export const OUT_OF_SYNC_TITLE = 'Data out of sync';
const NO_TEXT_SELECTED: ToastInput = { title: 'No text selected', description: 'Please select text in the transcript first.' };

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Text for a history entry or a list: cut to `max` characters with an ellipsis. */
export function shorten(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The last word that starts at or before `time` (0 when none): where 'Jump to Current' goes. */
export function wordAtOrBefore(words: readonly { start: number }[], time: number): number {
  return Math.max(0, lastWordStartingAtOrBefore(words, time));
}

/** The words a shortcut or menu command applies to: the selection, else the focused word. */
export function targetWords(context: Pick<EditorCommandContext, 'editor' | 'focusedWord'>): number[] {
  const snapshot = context.editor.getSnapshot();
  const picked = selectedIndices(snapshot.selection);
  if (picked.length > 0) return picked;
  const focused = context.focusedWord();
  return focused !== undefined && focused < snapshot.content.words.length ? [focused] : [];
}

/** The selected words' text ('' without a selection). */
export function selectedText(editor: EditorStore): string {
  const { content, selection } = editor.getSnapshot();
  return selectionText(content.words, selection);
}

export function copySelection(context: Pick<EditorCommandContext, 'editor' | 'writeClipboard'>): void {
  const text = selectedText(context.editor);
  if (text) context.writeClipboard(text);
}

/** Cut Selection: removes the selected words from the text (undoable) and clears the selection. */
export function cutSelection(editor: EditorStore): void {
  const { content, selection } = editor.getSnapshot();
  const indices = selectedIndices(selection);
  if (indices.length === 0) return;
  editor.edit('cut-selection', `Cut ${shorten(selectionText(content.words, selection))}`, deleteWordsDeltas(indices, content.words));
  editor.clearSelection();
}

/** Paste: the text's words after the selection, else after the focused word, else at the end. */
export function pasteText(context: Pick<EditorCommandContext, 'editor' | 'focusedWord'>, text: string): void {
  const { content, selection } = context.editor.getSnapshot();
  const bounds = selectionBounds(selection);
  const after = bounds ? bounds.end : (context.focusedWord() ?? content.words.length - 1);
  const deltas = pasteDeltas(content.words, after, text);
  if (!deltas) return;
  context.editor.edit('paste', `Paste '${shorten(text.trim())}'`, deltas);
}

/** Delete / Cut: marks the words for cutting, or unmarks them when all already are. */
export function toggleCutMarks(editor: EditorStore, indices: readonly number[]): void {
  if (indices.length === 0) return;
  const { marks } = editor.getSnapshot();
  if (indices.every((i) => isCutMark(marks[i] ?? 0))) editor.unmarkCuts(indices);
  else editor.markCuts(indices);
}

export function muteWords(editor: EditorStore, indices: readonly number[], level: MuteLevel): void {
  editor.markMutes(indices, level);
}

export function unmuteWords(editor: EditorStore, indices: readonly number[]): void {
  editor.unmarkMutes(indices);
}

/** Restore word: the words lose their cut and mute marks (one undoable step). */
export function restoreWords(editor: EditorStore, indices: readonly number[]): void {
  editor.restoreWords(indices);
}

/** Ctrl/Cmd+M: flags the keyboard fillers on top of the automatic ones (undoable) and says how many: the chip's count. */
export function flagKeyboardFillers(context: Pick<EditorCommandContext, 'editor' | 'toast'>): void {
  const { editor } = context;
  const found = flaggedFillers(editor.getSnapshot().content.words);
  editor.setFillers(found, `Flag ${plural(found.length, 'filler word')}`);
  editor.refreshFillers();
  context.toast({ title: found.length ? `${plural(found.length, 'filler word')} flagged` : 'No filler words found' });
}

/** Edit Word: the word's new text (undoable; an unchanged text changes nothing); false when there is no such word. */
export function saveWordText(editor: EditorStore, index: number, text: string): boolean {
  const { words } = editor.getSnapshot().content;
  const word = words[index];
  if (!word) return false;
  const deltas = replaceRunDeltas(words, index, index, text);
  if (deltas.length > 0) editor.edit('edit-word', `Edit '${word.text}' to '${shorten(text.trim())}'`, deltas);
  return true;
}

/** Remove Filler Word: removes that one word from the text (undoable). */
export function removeFillerWord(editor: EditorStore, index: number): void {
  const { words } = editor.getSnapshot().content;
  const word = words[index];
  if (!word) return;
  editor.edit('remove-filler', `Remove filler '${word.text}'`, deleteWordsDeltas([index], words));
}

/** Replace (search): the current result's text (undoable). */
export function replaceCurrentMatch(editor: EditorStore, replacement: string): void {
  const { content, search } = editor.getSnapshot();
  const match = search.matches[search.current];
  if (!match) return;
  const deltas = replaceMatchDeltas(content.words, match, replacement);
  if (deltas.length > 0) editor.edit('replace', `Replace '${search.query}' with '${shorten(replacement)}'`, deltas);
}

/** Mute Similar: the same word's occurrences to confirm, or null (and a toast) when it appears once. */
export function similarWordsToMute(context: Pick<EditorCommandContext, 'editor' | 'toast'>, index: number): SimilarWordAnalysis | null {
  const analysis = findSimilarWords(context.editor.getSnapshot().content.words, index);
  if (analysis.totalMatches <= 1) {
    context.toast({ title: 'No similar words found', description: `'${analysis.originalWord}' appears only once.` });
    return null;
  }
  return analysis;
}

export function muteSimilarWords(editor: EditorStore, analysis: SimilarWordAnalysis, level: MuteLevel): void {
  muteWords(editor, analysis.matches.flatMap((m) => m.indices), level);
}

/**
 * Keep Selection: previews the kept text (the rest dimmed, playback limited to it, from its start),
 * or says why not: the selection must be one run of words that is not the whole video.
 */
export function startKeepPreview(context: Pick<EditorCommandContext, 'editor' | 'playback' | 'toast'>, duration: number): void {
  const { editor } = context;
  const { content, selection } = editor.getSnapshot();
  const check = checkKeepSelection(content.words, selection, duration);
  if (!check.ok) {
    if (check.reason === 'not-contiguous') {
      context.toast({ title: KEEP_MESSAGES.notContiguousTitle, description: KEEP_MESSAGES.notContiguousDescription, variant: 'destructive' });
    } else if (check.reason === 'whole-video') {
      context.toast({ title: KEEP_MESSAGES.wholeVideoTitle, description: 'Select less than the whole video to keep.', variant: 'destructive' });
    } else {
      context.toast(NO_TEXT_SELECTED);
    }
    return;
  }
  const bounds = selectionBounds(selection)!;
  editor.setKeepPreview(bounds, check.cuts);
  const first = content.words[bounds.start];
  if (first) context.playback.seek(first.start);
}

export function cancelKeepPreview(editor: EditorStore): void {
  editor.setKeepPreview(null);
}

/** Escape: leaves the keep preview, else clears the selection. */
export function escapeCommand(editor: EditorStore): void {
  if (editor.getSnapshot().keepPreview) cancelKeepPreview(editor);
  else editor.clearSelection();
}

export function selectAllWords(editor: EditorStore): void {
  const count = editor.getSnapshot().content.words.length;
  if (count > 0) editor.select(selectRange(0, count - 1), 0);
}

export function selectWord(editor: EditorStore, index: number): void {
  editor.select(selectRange(index, index), index);
}

/** Create Clip: opens the Create Video Clip dialog on the selected words' time span. */
export function openCreateClipDialog(context: Pick<EditorCommandContext, 'editor' | 'workspace' | 'toast'>): void {
  const { content, selection } = context.editor.getSnapshot();
  const bounds = selectionBounds(selection);
  const first = bounds ? content.words[bounds.start] : undefined;
  const last = bounds ? content.words[bounds.end] : undefined;
  if (!first || !last || !(last.end > first.start)) {
    context.toast(NO_TEXT_SELECTED);
    return;
  }
  context.workspace.update({ clipDialog: { start: first.start, end: last.end, text: selectionText(content.words, selection) } });
}

/**
 * Reorder Segments: the paragraphs become reorder mode's segments. Refused while an edit is still
 * saving (the reorder names the transcript version), with 'Data out of sync' when the last
 * paragraph ends more than 5 s after the video, and for a single paragraph.
 */
export function enterReorderMode(context: Pick<EditorCommandContext, 'editor' | 'workspace' | 'playback' | 'toast'>, videoDuration: number | null | undefined): void {
  const snapshot = context.editor.getSnapshot();
  if (snapshot.saving > 0) {
    context.toast({ title: 'Please wait', description: 'Your last edit is still being saved.' });
    return;
  }
  const duration = videoDuration ?? context.playback.getSnapshot().duration;
  const { words, paragraphs } = snapshot.content;
  if (isOutOfSync(paragraphs, duration)) {
    context.toast({
      title: OUT_OF_SYNC_TITLE,
      description: 'The transcript runs past the end of the video. Refresh the page to load the latest data.',
      variant: 'destructive',
      action: REFRESH_ACTION,
    });
    return;
  }
  if (paragraphs.length < 2) {
    context.toast({ title: 'Nothing to reorder', description: 'The transcript has a single paragraph.' });
    return;
  }
  const segments = paragraphSegments(words, paragraphs);
  context.workspace.update({ reorder: { original: segments, segments, words, paragraphs, transcriptVersion: snapshot.version } });
}

/**
 * Clear history: the transcript back to its original text (saved), the video's changed flags reset
 * and its record refetched; the history stays when the save fails.
 */
export async function clearHistory(
  context: Pick<EditorCommandContext, 'editor' | 'toast'> & { resetChangedFlags: () => Promise<unknown>; refetchVideo: () => Promise<unknown> },
): Promise<void> {
  try {
    const reverted = await context.editor.revertAll();
    if (!reverted) {
      context.toast({ title: 'No history to clear' });
      return;
    }
    await context.resetChangedFlags();
    await context.refetchVideo();
    context.toast({ title: 'History cleared', description: 'The transcript is back to its original text.' });
  } catch {
    context.toast({ title: 'Error', description: 'Failed to revert changes. History preserved for retry.', variant: 'destructive' });
  }
}
