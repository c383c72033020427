import { selectRange } from '@wordcut/editor-core';
import { WorkspaceStore } from '../shared/workspace';
import { EditorStore } from './editorStore';
import { linkEditorToPage } from './pageLink';
import { transcriptOfTexts } from '../testing/transcripts';

/** What the page's workspace and the editor bridge learn from the transcript editor, and when. */

it('mirrors the marks, the selection span, the keep span and the history length, and clears the workspace when unlinked', async () => {
  const editor = new EditorStore({ videoId: 'v1', transcript: transcriptOfTexts(['a', 'b', 'c']), saver: { save: async (_id, v) => v + 1 }, storage: null });
  const workspace = new WorkspaceStore();
  const bridge = { set: jest.fn() };
  const unlink = linkEditorToPage(editor, workspace, bridge);
  expect(bridge.set).toHaveBeenLastCalledWith({ historyEntries: 0 });

  editor.markCuts([0]);
  editor.markMutes([2], 'silence');
  editor.select(selectRange(1, 2), 1);
  editor.setKeepPreview({ start: 1, end: 1 }, []);
  const page = workspace.getSnapshot();
  expect(page.pendingCuts).toBe(editor.getSnapshot().pendingCuts);
  expect(page.pendingMutes).toBe(editor.getSnapshot().pendingMutes);
  expect(page.selectionRange).toEqual({ start: 1, end: 2.8 });
  expect(page.range).toEqual({ start: 1, end: 1.8 });

  editor.edit('edit-word', 'x', [{ word_order: 0, changes: { text: 'z', confidence: 1 } }]);
  expect(bridge.set).toHaveBeenLastCalledWith({ historyEntries: 1 });

  // a change the page does not show (the search) publishes nothing
  const calls = bridge.set.mock.calls.length;
  editor.setSearch('b');
  expect(bridge.set.mock.calls.length).toBe(calls);

  unlink();
  expect(workspace.getSnapshot()).toMatchObject({ pendingCuts: [], pendingMutes: [], selectionRange: null, range: null });
  editor.markCuts([1]);
  expect(workspace.getSnapshot().pendingCuts).toEqual([]);
  await editor.flush();
  editor.dispose();
});
