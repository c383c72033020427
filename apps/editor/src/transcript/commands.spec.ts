import { action, runAction } from './actions';
import type { ActionContext, ActionId } from './actions';
import { selectRange, toggleWord } from '@wordcut/editor-core';
import type { ToastInput } from '@wordcut/ui';
import { createPlaybackStore } from '../shared/playback';
import { REFRESH_ACTION } from '../shared/refreshPage';
import { WorkspaceStore } from '../shared/workspace';
import {
  OUT_OF_SYNC_TITLE,
  cancelKeepPreview,
  clearHistory,
  copySelection,
  cutSelection,
  enterReorderMode,
  escapeCommand,
  flagKeyboardFillers,
  muteSimilarWords,
  muteWords,
  openCreateClipDialog,
  pasteText,
  removeFillerWord,
  replaceCurrentMatch,
  saveWordText,
  selectedText,
  similarWordsToMute,
  startKeepPreview,
  targetWords,
  toggleCutMarks,
  unmuteWords,
  wordAtOrBefore,
} from './commands';
import type { EditorCommandContext } from './commands';
import { EditorStore } from './editorStore';
import type { TranscriptSavePayload } from './saveQueue';
import { transcriptOfTexts } from '../testing/transcripts';

/**
 * The transcript editor's commands against real stores (the editing store with an in-memory saver,
 * the page's workspace and playback stores), no React: what each toolbar button, menu item and
 * shortcut does to the text, the marks, the previews and the toasts.
 */

const stores: EditorStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) {
    await store.flush();
    store.dispose();
  }
});

function setup(texts: string[], paragraphs?: number[][]) {
  const saves: TranscriptSavePayload[] = [];
  const editor = new EditorStore({
    videoId: 'v1',
    transcript: transcriptOfTexts(texts, { paragraphs }),
    saver: { save: async (_id, version, payload) => (saves.push(payload), version + 1) },
    storage: null,
  });
  stores.push(editor);
  const workspace = new WorkspaceStore();
  const playback = createPlaybackStore(() => 0);
  const toasts: ToastInput[] = [];
  const clipboard: string[] = [];
  let focused: number | undefined;
  const context: EditorCommandContext = {
    editor,
    workspace,
    playback,
    focusedWord: () => focused,
    toast: (input) => void toasts.push(input),
    writeClipboard: (text) => void clipboard.push(text),
  };
  const words = () => editor.getSnapshot().content.words.map((w) => w.text);
  return { context, editor, workspace, playback, toasts, clipboard, saves, words, focus: (index: number | undefined) => (focused = index) };
}

const lastHistoryEntry = (editor: EditorStore) => editor.getSnapshot().history.entries.at(-1)?.description;

describe('what a command applies to', () => {
  it('the selection, else the focused word (when it exists), else nothing', () => {
    const { context, editor, focus } = setup(['a', 'b', 'c']);
    expect(targetWords(context)).toEqual([]);
    focus(9);
    expect(targetWords(context)).toEqual([]);
    focus(2);
    expect(targetWords(context)).toEqual([2]);
    editor.select(selectRange(0, 1), 0);
    expect(targetWords(context)).toEqual([0, 1]);
  });

  it("'Jump to Current' goes to the last word starting at or before the time, else the first", () => {
    const words = [{ start: 1 }, { start: 2 }, { start: 3 }];
    expect(wordAtOrBefore(words, 0.5)).toBe(0);
    expect(wordAtOrBefore(words, 2.5)).toBe(1);
    expect(wordAtOrBefore(words, 9)).toBe(2);
  });
});

describe('text edits', () => {
  it('copy puts the selected text on the clipboard; nothing without a selection', () => {
    const { context, editor, clipboard } = setup(['hello', 'big', 'world']);
    copySelection(context);
    expect(clipboard).toEqual([]);
    editor.select(selectRange(1, 2), 1);
    copySelection(context);
    expect(clipboard).toEqual(['big world']);
    expect(selectedText(editor)).toBe('big world');
  });

  it('cut selection removes the words (undoable) and clears the selection', async () => {
    const { editor, words, saves } = setup(['keep', 'drop', 'this']);
    editor.select(selectRange(1, 1), 1);
    cutSelection(editor);
    expect(words()).toEqual(['keep', 'this']);
    expect(lastHistoryEntry(editor)).toBe('Cut drop');
    expect(editor.getSnapshot().selection).toHaveLength(0);
    await editor.flush();
    expect(saves).toHaveLength(1);
    editor.undo();
    expect(words()).toEqual(['keep', 'drop', 'this']);
  });

  it('paste goes after the selection, else after the focused word, else at the end', () => {
    const { context, editor, words, focus } = setup(['one', 'two', 'three']);
    pasteText(context, 'x');
    expect(words()).toEqual(['one', 'two', 'three', 'x']);
    focus(0);
    pasteText(context, 'y z');
    expect(words()).toEqual(['one', 'y', 'z', 'two', 'three', 'x']);
    expect(lastHistoryEntry(editor)).toBe("Paste 'y z'");
    editor.select(selectRange(3, 3), 3);
    pasteText(context, 'w');
    expect(words()).toEqual(['one', 'y', 'z', 'two', 'w', 'three', 'x']);
  });

  it('edit word replaces its text; an empty change does nothing; a missing word is refused', () => {
    const { editor, words } = setup(['hello', 'wrold']);
    expect(saveWordText(editor, 1, 'world')).toBe(true);
    expect(words()).toEqual(['hello', 'world']);
    expect(lastHistoryEntry(editor)).toBe("Edit 'wrold' to 'world'");
    expect(saveWordText(editor, 1, 'world')).toBe(true);
    expect(editor.getSnapshot().history.entries).toHaveLength(1);
    expect(saveWordText(editor, 7, 'x')).toBe(false);
  });

  it('remove filler word removes that one word', () => {
    const { editor, words } = setup(['so', 'um', 'yes']);
    removeFillerWord(editor, 1);
    expect(words()).toEqual(['so', 'yes']);
    expect(lastHistoryEntry(editor)).toBe("Remove filler 'um'");
  });

  it('replace changes the current search result only', () => {
    const { editor, words } = setup(['the', 'cat', 'and', 'the', 'hat']);
    editor.setSearch('the');
    editor.stepSearch(1);
    replaceCurrentMatch(editor, 'a');
    expect(words()).toEqual(['the', 'cat', 'and', 'a', 'hat']);
    expect(lastHistoryEntry(editor)).toBe("Replace 'the' with 'a'");
  });

  it('Ctrl/Cmd+M flags the keyboard fillers and says how many', () => {
    const { context, editor, toasts } = setup(['um', 'so', 'uh', 'yes']);
    flagKeyboardFillers(context);
    expect(editor.getSnapshot().content.fillerWords).toEqual([0, 2]);
    expect(editor.getSnapshot().fillerCount).toBe(2);
    expect(toasts.at(-1)).toEqual({ title: '2 filler words flagged' });
    const clean = setup(['plain', 'words']);
    flagKeyboardFillers(clean.context);
    expect(clean.toasts).toEqual([{ title: 'No filler words found' }]);
  });
});

describe('marks', () => {
  it('delete marks words for cutting, and unmarks them when all already are', () => {
    const { editor } = setup(['a', 'b', 'c']);
    toggleCutMarks(editor, [0, 1]);
    expect(editor.getSnapshot().pendingCuts.map((c) => c.wordIndices)).toEqual([[0, 1]]);
    toggleCutMarks(editor, [1, 2]);
    expect(editor.getSnapshot().pendingCuts.flatMap((c) => c.wordIndices)).toEqual([0, 1, 2]);
    toggleCutMarks(editor, [0, 1, 2]);
    expect(editor.getSnapshot().pendingCuts).toHaveLength(0);
    toggleCutMarks(editor, []);
    expect(editor.getSnapshot().pendingCuts).toHaveLength(0);
  });

  it('mute marks words at a level; unmute removes the marks', () => {
    const { editor } = setup(['a', 'b', 'c']);
    muteWords(editor, [1], 'whisper');
    expect(editor.getSnapshot().pendingMutes.map((m) => [m.wordIndices, m.level])).toEqual([[[1], 'whisper']]);
    unmuteWords(editor, [1]);
    expect(editor.getSnapshot().pendingMutes).toHaveLength(0);
  });

  it('mute similar finds the same word elsewhere, or says it appears only once', () => {
    const { context, editor, toasts } = setup(['Like', 'this', 'like', 'that']);
    expect(similarWordsToMute(context, 1)).toBeNull();
    expect(toasts.at(-1)).toEqual({ title: 'No similar words found', description: "'this' appears only once." });
    const analysis = similarWordsToMute(context, 0)!;
    expect(analysis.totalMatches).toBe(2);
    muteSimilarWords(editor, analysis, 'background');
    expect(editor.getSnapshot().pendingMutes.flatMap((m) => m.wordIndices)).toEqual([0, 2]);
    expect(editor.getSnapshot().pendingMutes.every((m) => m.level === 'background')).toBe(true);
  });
});

describe('keep selection', () => {
  it('needs a selection, one run of words, and less than the whole video', () => {
    const { context, editor, toasts } = setup(['a', 'b', 'c', 'd']);
    startKeepPreview(context, 4);
    expect(toasts.at(-1)).toEqual({ title: 'No text selected', description: 'Please select text in the transcript first.' });
    editor.select(toggleWord(selectRange(0, 0), 2), 2);
    startKeepPreview(context, 4);
    expect(toasts.at(-1)?.title).toBe('Selection must be contiguous');
    editor.select(selectRange(0, 3), 0);
    startKeepPreview(context, 3.8);
    expect(toasts.at(-1)).toMatchObject({ title: 'Selection covers entire video', description: 'Select less than the whole video to keep.', variant: 'destructive' });
    expect(editor.getSnapshot().keepPreview).toBeNull();
  });

  it('previews the kept words with the ranges it cuts and plays from their start; Escape leaves it, then clears the selection', () => {
    const { context, editor, playback } = setup(['a', 'b', 'c', 'd']);
    playback.setDuration(4);
    editor.select(selectRange(1, 2), 1);
    startKeepPreview(context, 4);
    const snapshot = editor.getSnapshot();
    expect(snapshot.keepPreview).toEqual({ start: 1, end: 2 });
    expect(snapshot.keepCuts).toEqual([
      { start: 0, end: 1 },
      { start: 2.8, end: 4 },
    ]);
    expect(playback.getSnapshot().currentTime).toBe(1);
    escapeCommand(editor);
    expect(editor.getSnapshot().keepPreview).toBeNull();
    expect(editor.getSnapshot().keepCuts).toEqual([]);
    expect(editor.getSnapshot().selection).toHaveLength(1);
    escapeCommand(editor);
    expect(editor.getSnapshot().selection).toHaveLength(0);
    editor.select(selectRange(1, 2), 1);
    startKeepPreview(context, 4);
    cancelKeepPreview(editor);
    expect(editor.getSnapshot().keepPreview).toBeNull();
  });
});

it('create clip opens the dialog on the selected words, or says nothing is selected', () => {
  const { context, editor, workspace, toasts } = setup(['make', 'a', 'clip']);
  openCreateClipDialog(context);
  expect(toasts.at(-1)?.title).toBe('No text selected');
  expect(workspace.getSnapshot().clipDialog).toBeNull();
  editor.select(selectRange(1, 2), 1);
  openCreateClipDialog(context);
  expect(workspace.getSnapshot().clipDialog).toEqual({ start: 1, end: 2.8, text: 'a clip' });
});

describe('reorder mode', () => {
  it('turns the paragraphs into segments, with the transcript version', () => {
    const { context, workspace } = setup(['one', 'two', 'three', 'four'], [[0, 1], [2, 3]]);
    enterReorderMode(context, 10);
    const reorder = workspace.getSnapshot().reorder!;
    expect(reorder.segments.map((s) => [s.paragraphId, s.start, s.end])).toEqual([
      [0, 0, 1.8],
      [1, 2, 3.8],
    ]);
    expect(reorder.original).toBe(reorder.segments);
    expect(reorder.transcriptVersion).toBe(1);
  });

  it('is refused while an edit saves, when the transcript runs past the video, and for one paragraph', () => {
    const saving = setup(['one', 'two', 'three'], [[0], [1, 2]]);
    saving.editor.edit('edit-word', 'x', [{ word_order: 0, changes: { text: 'uno', confidence: 1 } }]);
    enterReorderMode(saving.context, 10);
    expect(saving.toasts.at(-1)).toEqual({ title: 'Please wait', description: 'Your last edit is still being saved.' });

    // the last paragraph ends at 7.8 s: more than 5 s after a 2 s video
    const outOfSync = setup(['1', '2', '3', '4', '5', '6', '7', '8'], [[0, 1, 2, 3], [4, 5, 6, 7]]);
    enterReorderMode(outOfSync.context, null);
    expect(outOfSync.workspace.getSnapshot().reorder).not.toBeNull();
    outOfSync.workspace.update({ reorder: null });
    enterReorderMode(outOfSync.context, 2);
    expect(outOfSync.toasts.at(-1)).toMatchObject({ title: OUT_OF_SYNC_TITLE, variant: 'destructive', action: REFRESH_ACTION });
    expect(outOfSync.workspace.getSnapshot().reorder).toBeNull();

    const single = setup(['one', 'two']);
    enterReorderMode(single.context, 10);
    expect(single.toasts.at(-1)).toEqual({ title: 'Nothing to reorder', description: 'The transcript has a single paragraph.' });
  });
});

describe('clear history', () => {
  it('says so when there is nothing to clear', async () => {
    const { context, toasts } = setup(['a']);
    const resetChangedFlags = jest.fn(async () => undefined);
    await clearHistory({ ...context, resetChangedFlags, refetchVideo: jest.fn(async () => undefined) });
    expect(toasts).toEqual([{ title: 'No history to clear' }]);
    expect(resetChangedFlags).not.toHaveBeenCalled();
  });

  it('reverts to the original text, resets the changed flags and refetches the video', async () => {
    const { context, editor, words, toasts, saves } = setup(['first', 'second']);
    saveWordText(editor, 0, 'changed');
    const order: string[] = [];
    await clearHistory({
      ...context,
      resetChangedFlags: async () => void order.push('reset'),
      refetchVideo: async () => void order.push('refetch'),
    });
    expect(words()).toEqual(['first', 'second']);
    expect(editor.getSnapshot().history.entries).toHaveLength(0);
    expect('words' in saves.at(-1)!).toBe(true);
    expect(order).toEqual(['reset', 'refetch']);
    expect(toasts.at(-1)).toEqual({ title: 'History cleared', description: 'The transcript is back to its original text.' });
  });

  it('keeps the history when reverting fails', async () => {
    const { context, editor, toasts } = setup(['first']);
    saveWordText(editor, 0, 'changed');
    await clearHistory({ ...context, resetChangedFlags: async () => Promise.reject(new Error('500')), refetchVideo: async () => undefined });
    expect(toasts.at(-1)).toEqual({ title: 'Error', description: 'Failed to revert changes. History preserved for retry.', variant: 'destructive' });
  });
});

describe('actions of the registry', () => {
  it('run their command on the selection or the focused word', () => {
    const { context, editor, words, focus } = setup(['a', 'b', 'c']);
    const openEdit = jest.fn();
    const togglePlayback = jest.fn();
    const openShortcuts = jest.fn();
    const c: ActionContext = { ...context, openEdit, togglePlayback, openShortcuts };
    const run = (id: ActionId) => runAction(c, action(id));
    run('select-all');
    expect(editor.getSnapshot().selection).toEqual([{ start: 0, end: 2 }]);
    run('escape');
    expect(editor.getSnapshot().selection).toHaveLength(0);
    // marks need words to apply to
    expect(run('mute-whisper')).toBe(false);
    focus(1);
    run('mute-whisper');
    run('mark-cut');
    expect(editor.getSnapshot().pendingMutes.map((m) => [m.wordIndices, m.level])).toEqual([[[1], 'whisper']]);
    expect(editor.getSnapshot().pendingCuts.map((x) => x.wordIndices)).toEqual([[1]]);
    run('unmute');
    expect(editor.getSnapshot().pendingMutes).toHaveLength(0);
    run('edit-word');
    expect(openEdit).toHaveBeenCalledWith(1);
    saveWordText(editor, 0, 'x');
    run('undo');
    expect(words()).toEqual(['a', 'b', 'c']);
    run('redo');
    expect(words()).toEqual(['x', 'b', 'c']);
    run('play-pause');
    run('shortcuts');
    expect([togglePlayback.mock.calls.length, openShortcuts.mock.calls.length]).toEqual([1, 1]);
    // keys the browser or the word list handle have no run here
    expect(run('copy')).toBe(false);
  });
});
