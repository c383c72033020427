import { describeError } from '@wordcut/ui';
import type { ToastInput } from '@wordcut/ui';
import type { ServerTranscript } from './contentChanges';
import type { EditorStore } from './editorStore';

/**
 * Undo and redo as one command over local steps and version steps: a step over a version (a
 * processed cut, filler or silence removal, mutes, a reorder, a revert) asks the server to show the
 * version on the other side, then puts its words and marks in place and refreshes the media.
 */

export interface VersionCommandContext {
  videoId: string;
  editor: EditorStore;
  /** the server's restore call */
  restore: (videoId: string, seq: number, expected: number) => Promise<unknown>;
  /** the transcript the server holds now */
  fetchTranscript: () => Promise<ServerTranscript>;
  /** refetches the video, its media and what depends on them */
  refreshVideo: () => Promise<void>;
  toast: (input: ToastInput) => void;
  /** marks a step in progress (the toolbar says so, and a second step waits) */
  setMoving: (moving: 'undo' | 'redo' | null) => void;
  isMoving: () => boolean;
}

const FAILED: Record<'undo' | 'redo', string> = { undo: 'Undo failed', redo: 'Redo failed' };

/** Undo (redo) the last (next) step; a version step goes through the server first. */
export async function stepHistory(context: VersionCommandContext, direction: 'undo' | 'redo'): Promise<void> {
  const { editor } = context;
  if (context.isMoving()) return;
  const move = editor.versionMove(direction);
  if (!move) {
    if (direction === 'undo') editor.undo();
    else editor.redo();
    return;
  }
  context.setMoving(direction);
  try {
    // text edits still being saved belong to the version being left
    await editor.flush();
    await context.restore(context.videoId, move.target, move.expected);
    const transcript = await context.fetchTranscript();
    editor.completeVersionMove(direction, transcript);
    await context.refreshVideo();
  } catch (error) {
    context.toast({ title: FAILED[direction], description: describeError(error), variant: 'destructive' });
  } finally {
    context.setMoving(null);
  }
}
