import { selectionBounds, textEntryCount } from '@wordcut/editor-core';
import type { WordRange } from '@wordcut/editor-core';
import type { EditorPublishState } from '@wordcut/ui';
import type { WorkspaceStore } from '../shared/workspace';
import type { EditorStore } from './editorStore';
import type { EditorSnapshot } from './editorSnapshot';

/**
 * What the rest of the page learns from the transcript editor. The player, timeline and clip cards
 * read the pending marks, the selected words' time span and the keep preview's span from the page's
 * workspace; the publish remote reads the count of text edits in the history from the editor bridge
 * ('Revert to Original' shows while there is any). This mirrors them there on every change that touches them,
 * until the returned function is called, which clears what it mirrored into the workspace.
 */
export function linkEditorToPage(
  editor: Pick<EditorStore, 'getSnapshot' | 'subscribe'>,
  workspace: WorkspaceStore,
  bridge: { set(patch: Partial<EditorPublishState>): void },
): () => void {
  let last: EditorSnapshot | null = null;
  const mirror = () => {
    const snapshot = editor.getSnapshot();
    if (last && !touchesPage(last, snapshot)) return;
    last = snapshot;
    bridge.set({ historyEntries: textEntryCount(snapshot.history) });
    workspace.update({
      pendingCuts: snapshot.pendingCuts,
      pendingMutes: snapshot.pendingMutes,
      selectionRange: timeSpan(snapshot, selectionBounds(snapshot.selection)),
      range: timeSpan(snapshot, snapshot.keepPreview),
    });
  };
  mirror();
  const unsubscribe = editor.subscribe(mirror);
  return () => {
    unsubscribe();
    workspace.update({ pendingCuts: [], pendingMutes: [], selectionRange: null, range: null });
  };
}

function touchesPage(before: EditorSnapshot, after: EditorSnapshot): boolean {
  return (
    before.pendingCuts !== after.pendingCuts ||
    before.pendingMutes !== after.pendingMutes ||
    before.selection !== after.selection ||
    before.keepPreview !== after.keepPreview ||
    before.content !== after.content ||
    before.history !== after.history
  );
}

/** From the first word's start to the last word's end, or null without words (or a zero-length span). */
function timeSpan(snapshot: EditorSnapshot, range: WordRange | null): { start: number; end: number } | null {
  const first = range ? snapshot.content.words[range.start] : undefined;
  const last = range ? snapshot.content.words[range.end] : undefined;
  return first && last && last.end > first.start ? { start: first.start, end: last.end } : null;
}
