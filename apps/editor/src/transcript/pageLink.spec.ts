import type { Transcript, Word } from '@wordcut/contracts';
import { selectRange } from '@wordcut/editor-core';
import { attachParagraphs } from '@wordcut/transcript';
import { WorkspaceStore } from '../shared/workspace';
import { EditorStore } from './editorStore';
import { linkEditorToPage } from './pageLink';

/** What the page's workspace and the editor bridge learn from the transcript editor, and when. */

function makeTranscript(texts: string[]): Transcript {
  const words: Word[] = texts.map((text, i) => ({ text, start: i, end: i + 0.8, confidence: 0.95, group_number: 0, word_order: i }));
  return {
    id: '00000000-0000-4000-8000-000000000001',
    videoId: '00000000-0000-4000-8000-000000000002',
    version: 1,
    languageCode: 'en',
    ...attachParagraphs(words, [{ wordIndices: words.map((_, i) => i) }]),
    fillerWords: [],
    updatedAt: new Date(0).toISOString(),
  };
}

it('mirrors the marks, the selection span, the keep span and the history length, and clears the workspace when unlinked', async () => {
  const editor = new EditorStore({ videoId: 'v1', transcript: makeTranscript(['a', 'b', 'c']), saver: { save: async (_id, v) => v + 1 }, storage: null });
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
