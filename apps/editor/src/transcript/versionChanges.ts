/**
 * The editor and the video's edit versions, as plain functions over its snapshot: a new version
 * arriving (a job's render, a revert) becomes one undoable history entry with the pending marks
 * carried through it; undo and redo of that entry put the transcript and marks of its other side
 * in place once the server shows that version. EditorStore applies them.
 */
import { mapPendingThrough, pushEntry, versionEntry, wordMarks } from '@wordcut/editor-core';
import type { History, HistoryEntry, MarkSet, PendingCut, PendingMute } from '@wordcut/editor-core';
import type { TranscriptContent } from '@wordcut/transcript';
import type { IncomingVersion } from '../shared/versions';
import { replacedTranscript } from './contentChanges';
import type { ServerTranscript } from './contentChanges';
import type { EditorSnapshot } from './editorSnapshot';
import { newHistoryId } from './markChanges';

export interface VersionArrival {
  snapshot: EditorSnapshot;
  /** pending mutes (cuts) whose words the new version no longer has */
  droppedMutes: number;
  droppedCuts: number;
}

/** The snapshot showing `content` with the marks of one side of a version entry. */
function withMarks(base: EditorSnapshot, marks: MarkSet, history: History): EditorSnapshot {
  const count = base.content.words.length;
  return {
    ...base,
    history,
    pendingCuts: marks.cuts,
    pendingMutes: marks.mutes,
    keepPreview: marks.keep?.range ?? null,
    keepCuts: marks.keep?.cuts ?? [],
    marks: wordMarks(marks.cuts as PendingCut[], marks.mutes as PendingMute[], count),
  };
}

/**
 * A new version arrived: its transcript replaces the words, the pending marks follow their words
 * into it (those whose words are gone are dropped and counted), and one history entry records the
 * step, so undo can go back to the version before with the words and marks it had.
 */
export function versionArrived(previous: EditorSnapshot, transcript: ServerTranscript, content: TranscriptContent, step: IncomingVersion): VersionArrival | null {
  const before: MarkSet = { cuts: previous.pendingCuts, mutes: previous.pendingMutes, keep: null };
  const carried = step.origins
    ? mapPendingThrough(before, step.origins, previous.content.words.length, content.words)
    : // the words were replaced (a revert, which asked first): no mark can follow them
      { cuts: [], mutes: [], droppedCuts: 0, droppedMutes: 0 };
  if (!carried) return null;
  const after: MarkSet = { cuts: carried.cuts, mutes: carried.mutes, keep: null };
  const entry = versionEntry(
    { id: newHistoryId(), timestamp: Date.now(), operation: step.operation, description: step.description },
    previous.content,
    content,
    { before, after },
    { before: step.before, after: step.after },
  );
  const snapshot = withMarks(replacedTranscript(previous, transcript, content), after, pushEntry(previous.history, entry));
  return { snapshot, droppedMutes: carried.droppedMutes, droppedCuts: carried.droppedCuts };
}

/** Undo (redo) of a version entry, once the server shows its other side: that side's words and marks. */
export function versionStepped(previous: EditorSnapshot, transcript: ServerTranscript, content: TranscriptContent, entry: HistoryEntry, direction: 'undo' | 'redo', history: History): EditorSnapshot {
  const marks = direction === 'undo' ? entry.marks!.before : entry.marks!.after;
  return withMarks(replacedTranscript(previous, transcript, content), marks, history);
}
