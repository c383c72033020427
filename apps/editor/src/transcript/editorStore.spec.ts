/* Over 400 lines: the store's tests share one fake server and transcript builder. */
import type { Transcript, Word } from '@wordcut/contracts';
import { applyWordDeltas, attachParagraphs, buildParagraphs, detectFillerWords } from '@wordcut/transcript';
import { deleteWordsDeltas, replaceRunDeltas, selectRange } from '@wordcut/editor-core';
import { EditorStore, STORAGE_PREFIX } from './editorStore';
import type { KeyValueStorage, TranscriptSavePayload, TranscriptSaver } from './editorStore';

/** A saver that behaves like the server: applies the payload to its own copy, checks the version. */
class FakeServer implements TranscriptSaver {
  version = 1;
  content: { words: Word[]; paragraphs: Transcript['paragraphs']; fillerWords: number[] };
  calls: TranscriptSavePayload[] = [];
  failNext = 0;
  gate: Promise<void> | null = null;
  constructor(t: Transcript) {
    this.content = { words: t.words, paragraphs: t.paragraphs, fillerWords: t.fillerWords };
  }
  async save(_id: string, version: number, payload: TranscriptSavePayload): Promise<number> {
    this.calls.push(payload);
    if (this.gate) await this.gate;
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('500: boom');
    }
    if (version !== this.version) throw new Error('409: stale');
    this.content =
      'wordDeltas' in payload
        ? applyWordDeltas(this.content, payload.wordDeltas)
        : { words: payload.words, paragraphs: payload.paragraphs, fillerWords: payload.fillerWords };
    return ++this.version;
  }
}

class MemoryStorage implements KeyValueStorage {
  map = new Map<string, string>();
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

function transcript(texts: string[]): Transcript {
  const words: Word[] = texts.map((text, i) => ({ text, start: i, end: i + 0.8, confidence: 0.95, group_number: 0, word_order: i }));
  const built = attachParagraphs(words, buildParagraphs(words));
  return {
    id: '00000000-0000-4000-8000-000000000001',
    videoId: '00000000-0000-4000-8000-000000000002',
    version: 1,
    languageCode: 'en',
    ...built,
    fillerWords: detectFillerWords(built.words),
    updatedAt: new Date(0).toISOString(),
  };
}

const texts = (s: EditorStore) => s.getSnapshot().content.words.map((w) => w.text);
const settle = async (s: EditorStore) => s.flush();

function make(t: Transcript, server: FakeServer, storage: KeyValueStorage | null = null, onSaveFailed?: () => void) {
  return new EditorStore({ videoId: 'v1', transcript: t, saver: server, storage, onSaveFailed });
}

describe('EditorStore', () => {
  it('applies an edit at once, saves it as word deltas, and the server ends with the same words', async () => {
    const t = transcript(['hello', 'wrold', 'again']);
    const server = new FakeServer(t);
    const store = make(t, server);
    expect(store.edit('edit-word', 'fix', replaceRunDeltas(t.words, 1, 1, 'world'))).toBe(true);
    expect(texts(store)).toEqual(['hello', 'world', 'again']);
    await settle(store);
    expect(server.calls[0]).toEqual({ wordDeltas: [{ word_order: 1, changes: { text: 'world', confidence: 1 } }] });
    expect(server.content.words.map((w) => w.text)).toEqual(['hello', 'world', 'again']);
    expect(store.getSnapshot().version).toBe(2);
  });

  it('undo and redo move the content and save each move; a new edit after undo drops the redo branch', async () => {
    const t = transcript(['a1', 'b2', 'c3', 'd4']);
    const server = new FakeServer(t);
    const store = make(t, server);
    store.edit('delete-words', 'del b2', deleteWordsDeltas([1], t.words));
    store.edit('edit-word', 'c3->x', replaceRunDeltas(store.getSnapshot().content.words, 1, 1, 'x'));
    await settle(store);
    expect(texts(store)).toEqual(['a1', 'x', 'd4']);
    store.undo();
    expect(texts(store)).toEqual(['a1', 'c3', 'd4']);
    store.undo();
    expect(texts(store)).toEqual(['a1', 'b2', 'c3', 'd4']);
    await settle(store);
    expect(server.content.words.map((w) => w.text)).toEqual(['a1', 'b2', 'c3', 'd4']);
    store.redo();
    await settle(store);
    expect(server.content.words.map((w) => w.text)).toEqual(['a1', 'c3', 'd4']);
    expect(store.getSnapshot().history.index).toBe(1);
    store.edit('edit-word', 'a1->z', replaceRunDeltas(store.getSnapshot().content.words, 0, 0, 'z'));
    const h = store.getSnapshot().history;
    expect(h.entries).toHaveLength(2);
    expect(h.index).toBe(2);
    expect(store.redo()).toBe(false);
    await settle(store);
  });

  it('a failed save rolls the edit back, with the edits queued after it, and reports it', async () => {
    const t = transcript(['one', 'two', 'three']);
    const server = new FakeServer(t);
    const failures: unknown[] = [];
    const store = make(t, server, null, () => failures.push(1));
    let release!: () => void;
    server.gate = new Promise((r) => (release = r));
    server.failNext = 1;
    store.edit('edit-word', 'first', replaceRunDeltas(t.words, 0, 0, 'uno'));
    store.edit('edit-word', 'second', replaceRunDeltas(store.getSnapshot().content.words, 1, 1, 'dos'));
    expect(texts(store)).toEqual(['uno', 'dos', 'three']);
    release();
    server.gate = null;
    await settle(store);
    expect(failures).toHaveLength(1);
    expect(texts(store)).toEqual(['one', 'two', 'three']);
    expect(store.getSnapshot().history.entries).toHaveLength(0);
    expect(server.content.words.map((w) => w.text)).toEqual(['one', 'two', 'three']);
    expect(server.calls).toHaveLength(1); // the second edit was never sent
  });

  it('keeps history and pending marks across a reload while the server holds the same transcript', async () => {
    const t = transcript(['alpha', 'beta', 'gamma', 'delta']);
    const server = new FakeServer(t);
    const storage = new MemoryStorage();
    const store = make(t, server, storage);
    store.edit('edit-word', 'beta->bravo', replaceRunDeltas(t.words, 1, 1, 'bravo'));
    store.markCuts([3]);
    store.markMutes([0], 'whisper');
    await settle(store);
    store.persist();
    store.dispose();
    expect(storage.map.has(`${STORAGE_PREFIX}v1`)).toBe(true);

    // "reload": a new store from what the server now serves
    const reloaded = make({ ...t, version: server.version, ...server.content }, server, storage);
    const s = reloaded.getSnapshot();
    // the edit and the two marks: one history
    expect(s.history.entries.map((e) => e.operation)).toEqual(['edit-word', 'mark-cut', 'mute']);
    expect(s.pendingCuts.map((c) => c.wordIndices)).toEqual([[3]]);
    expect(s.pendingMutes.map((m) => [m.wordIndices, m.level])).toEqual([[[0], 'whisper']]);
    reloaded.undo();
    reloaded.undo();
    expect(reloaded.getSnapshot().pendingCuts).toHaveLength(0);
    reloaded.undo();
    await settle(reloaded);
    expect(server.content.words.map((w) => w.text)).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    reloaded.redo();
    await settle(reloaded);
    expect(server.content.words.map((w) => w.text)).toEqual(['alpha', 'bravo', 'gamma', 'delta']);
  });

  it('drops a stored history made on another transcript (a job re-timed it)', () => {
    const t = transcript(['alpha', 'beta']);
    const storage = new MemoryStorage();
    const server = new FakeServer(t);
    const store = make(t, server, storage);
    store.edit('edit-word', 'x', replaceRunDeltas(t.words, 0, 0, 'x'));
    return settle(store).then(() => {
      store.persist();
      const other = transcript(['something', 'else', 'entirely']);
      const reloaded = make({ ...other, version: 9 }, new FakeServer(other), storage);
      expect(reloaded.getSnapshot().history.entries).toHaveLength(0);
      expect(storage.map.has(`${STORAGE_PREFIX}v1`)).toBe(false);
    });
  });

  it('clear history returns to the original with one full replacement', async () => {
    const t = transcript(['keep', 'this', 'text']);
    const server = new FakeServer(t);
    const store = make(t, server);
    store.edit('edit-word', '1', replaceRunDeltas(t.words, 0, 0, 'changed'));
    store.edit('delete-words', '2', deleteWordsDeltas([2], store.getSnapshot().content.words));
    expect(await store.revertAll()).toBe(true);
    expect(texts(store)).toEqual(['keep', 'this', 'text']);
    expect(server.content.words.map((w) => w.text)).toEqual(['keep', 'this', 'text']);
    expect('words' in server.calls[server.calls.length - 1]!).toBe(true);
    expect(store.getSnapshot().history.entries).toHaveLength(0);
    expect(await store.revertAll()).toBe(false);
  });

  it('clear history keeps the history when the save fails', async () => {
    const t = transcript(['keep', 'this']);
    const server = new FakeServer(t);
    const store = make(t, server);
    store.edit('edit-word', '1', replaceRunDeltas(t.words, 0, 0, 'changed'));
    await settle(store);
    server.failNext = 1;
    await expect(store.revertAll()).rejects.toThrow('500');
    expect(store.getSnapshot().history.entries).toHaveLength(1);
    expect(texts(store)).toEqual(['changed', 'this']);
  });

  it('pending marks follow the words through an edit that shifts indices', () => {
    const t = transcript(['a1', 'b2', 'c3', 'd4']);
    const store = make(t, new FakeServer(t));
    store.markCuts([2, 3]);
    store.edit('delete-words', 'del a1', deleteWordsDeltas([0], t.words));
    expect(store.getSnapshot().pendingCuts.map((c) => c.wordIndices)).toEqual([[1, 2]]);
    expect(Array.from(store.getSnapshot().marks)).toEqual([0, 1, 1]);
  });

  it('search finds words case-insensitively and steps with wrap-around', () => {
    const t = transcript(['The', 'cat', 'and', 'the', 'hat']);
    const store = make(t, new FakeServer(t));
    store.setSearch('THE');
    expect(store.getSnapshot().search.matches.map((m) => m.first)).toEqual([0, 3]);
    expect(Array.from(store.getSnapshot().found)).toEqual([2, 0, 0, 1, 0]);
    expect(store.stepSearch(1)?.first).toBe(3);
    expect(store.stepSearch(1)?.first).toBe(0);
    expect(store.stepSearch(-1)?.first).toBe(3);
  });

  it('a server transcript of a new version replaces the content; our own version is ignored', () => {
    const t = transcript(['a1', 'b2']);
    const store = make(t, new FakeServer(t));
    store.select(selectRange(0, 1), 0);
    store.receive(t);
    expect(store.getSnapshot().selection).toHaveLength(1);
    store.receive({ ...transcript(['new', 'words', 'here']), version: 5 });
    expect(texts(store)).toEqual(['new', 'words', 'here']);
    expect(store.getSnapshot().selection).toHaveLength(0);
  });

  it('a render that leaves the words as they were keeps history; cleared marks stay cleared (not reloaded from storage)', async () => {
    const t = transcript(['alpha', 'beta', 'gamma']);
    const server = new FakeServer(t);
    const storage = new MemoryStorage();
    const store = make(t, server, storage);
    store.edit('edit-word', 'x', replaceRunDeltas(t.words, 0, 0, 'alef'));
    store.markMutes([1, 2], 'background');
    await settle(store);
    store.persist();
    // the mute job completes: the editor settles the marks, then the refetch brings a new version with the same words
    store.settleMutes();
    store.receive({ ...t, ...server.content, version: server.version + 1 });
    const s = store.getSnapshot();
    expect(s.pendingMutes).toHaveLength(0);
    expect(s.history.entries).toHaveLength(1);
    expect(s.version).toBe(server.version + 1);
    const stored = JSON.parse(storage.getItem(`${STORAGE_PREFIX}v1`)!) as { pendingMutes: unknown[] };
    expect(stored.pendingMutes).toHaveLength(0);
  });

  describe('one history for text edits and marks', () => {
    const marked = (store: EditorStore) => {
      const { pendingCuts, pendingMutes } = store.getSnapshot();
      return { cuts: pendingCuts.flatMap((c) => c.wordIndices), mutes: pendingMutes.map((m) => `${m.wordIndices.join(',')}:${m.level}`) };
    };

    it('undoes and redoes cut marks, mute marks with their level, and text edits in one order', async () => {
      const t = transcript(['alpha', 'beta', 'gamma', 'delta']);
      const server = new FakeServer(t);
      const store = make(t, server);
      store.markCuts([1]);
      store.markMutes([2], 'whisper');
      store.edit('edit-word', 'x', replaceRunDeltas(t.words, 0, 0, 'alef'));
      store.markMutes([2], 'background');
      expect(store.getSnapshot().history.index).toBe(4);
      expect(marked(store)).toEqual({ cuts: [1], mutes: ['2:background'] });

      store.undo();
      expect(marked(store)).toEqual({ cuts: [1], mutes: ['2:whisper'] });
      store.undo();
      expect(texts(store)[0]).toBe('alpha');
      store.undo();
      expect(marked(store)).toEqual({ cuts: [1], mutes: [] });
      store.undo();
      expect(marked(store)).toEqual({ cuts: [], mutes: [] });
      expect(store.undo()).toBe(false);

      store.redo();
      store.redo();
      store.redo();
      store.redo();
      expect(texts(store)[0]).toBe('alef');
      expect(marked(store)).toEqual({ cuts: [1], mutes: ['2:background'] });
      await settle(store);
      expect(server.content.words[0]!.text).toBe('alef');
    });

    it('Cancel Cuts, Clear Mutes and Restore word are undoable; a mark after an undo drops the redo branch', () => {
      const t = transcript(['alpha', 'beta', 'gamma']);
      const store = make(t, new FakeServer(t));
      store.markCuts([0, 1]);
      store.markMutes([2], 'silence');
      store.clearCuts();
      expect(marked(store).cuts).toEqual([]);
      store.undo();
      expect(marked(store).cuts).toEqual([0, 1]);
      store.clearMutes();
      store.undo();
      expect(marked(store).mutes).toEqual(['2:silence']);
      store.restoreWords([1, 2]);
      expect(marked(store)).toEqual({ cuts: [0], mutes: [] });
      expect(store.getSnapshot().history.entries.at(-1)!.operation).toBe('restore');
      store.undo();
      expect(marked(store)).toEqual({ cuts: [0, 1], mutes: ['2:silence'] });
      store.markCuts([2]);
      expect(store.redo()).toBe(false);
    });

    it('the keep preview is undoable too; a job that takes it leaves no keep entry behind', () => {
      const t = transcript(['alpha', 'beta', 'gamma']);
      const store = make(t, new FakeServer(t));
      const cuts = [{ start: 0, end: 1 }];
      store.setKeepPreview({ start: 1, end: 2 }, cuts);
      store.markCuts([0]);
      expect(store.getSnapshot().history.entries.map((e) => e.operation)).toEqual(['keep-preview', 'mark-cut']);
      store.undo();
      store.undo();
      expect(store.getSnapshot().keepPreview).toBeNull();
      store.redo();
      expect(store.getSnapshot().keepPreview).toEqual({ start: 1, end: 2 });
      expect(store.getSnapshot().keepCuts).toEqual(cuts);
      store.setKeepPreview(null);
      expect(store.getSnapshot().history.entries.at(-1)!.operation).toBe('cancel-keep');
      store.undo();
      expect(store.getSnapshot().keepPreview).toEqual({ start: 1, end: 2 });
      store.settleKeep();
      expect(store.getSnapshot().keepPreview).toBeNull();
      expect(store.getSnapshot().history.entries).toHaveLength(0);
    });

    it('a change that changes nothing makes no entry', () => {
      const t = transcript(['alpha', 'beta']);
      const store = make(t, new FakeServer(t));
      store.clearCuts();
      store.unmarkMutes([0]);
      expect(store.getSnapshot().history.entries).toHaveLength(0);
    });

    it('settled mutes leave the marks and the history; text entries stay', () => {
      const t = transcript(['alpha', 'beta', 'gamma']);
      const store = make(t, new FakeServer(t));
      store.edit('edit-word', 'x', replaceRunDeltas(t.words, 0, 0, 'alef'));
      store.markMutes([1], 'whisper');
      store.markCuts([2]);
      store.settleMutes();
      const { history } = store.getSnapshot();
      expect(history.entries.map((e) => e.operation)).toEqual(['edit-word', 'mark-cut']);
      expect(history.index).toBe(2);
      store.undo();
      expect(marked(store)).toEqual({ cuts: [], mutes: [] });
    });

    it('marks entries survive a reload through storage', async () => {
      const t = transcript(['alpha', 'beta', 'gamma']);
      const server = new FakeServer(t);
      const storage = new MemoryStorage();
      const store = make(t, server, storage);
      store.markMutes([1], 'whisper');
      store.markCuts([2]);
      await settle(store);
      store.persist();
      const again = make(t, server, storage);
      expect(again.getSnapshot().history.index).toBe(2);
      again.undo();
      expect(marked(again)).toEqual({ cuts: [], mutes: ['1:whisper'] });
      again.undo();
      expect(marked(again)).toEqual({ cuts: [], mutes: [] });
    });
  });

  describe('edit versions (undo across processing)', () => {
    /** the server's transcript after a render that kept the words at `kept` (retimed to follow each other) */
    function rendered(t: Transcript, kept: number[], version: number): Transcript {
      const words = kept.map((k, i) => ({ ...t.words[k]!, start: i, end: i + 0.8, word_order: i }));
      const built = attachParagraphs(words, buildParagraphs(words));
      return { ...t, ...built, fillerWords: detectFillerWords(built.words), version };
    }
    const step = (origins: [number, number][] | null) => ({ before: 0, after: 1, origins, operation: 'process' as const, description: 'Processing video' });

    it('a processed cut is one undo step; pending mutes follow their words, and undo and redo need the server', () => {
      const t = transcript(['one', 'two', 'three', 'four', 'five']);
      const store = make(t, new FakeServer(t));
      store.markMutes([3, 4], 'whisper');
      store.markCuts([1, 2]);
      store.settleCuts();
      const cut = rendered(t, [0, 3, 4], 2);
      expect(store.receive(cut, step([[0, 1], [3, 2]]))).toBe(true);
      const s = store.getSnapshot();
      expect(texts(store)).toEqual(['one', 'four', 'five']);
      expect(s.pendingMutes.map((m) => [m.wordIndices, m.level, m.text])).toEqual([[[1, 2], 'whisper', 'four five']]);
      expect(s.history.entries.map((e) => e.operation)).toEqual(['mute', 'process']);
      // the history step needs the version before on the server; a local undo refuses it
      expect(store.versionMove('undo')).toEqual({ direction: 'undo', target: 0, expected: 1 });
      expect(store.undo()).toBe(false);
      store.completeVersionMove('undo', { ...t, version: 3 });
      expect(texts(store)).toEqual(['one', 'two', 'three', 'four', 'five']);
      expect(store.getSnapshot().pendingMutes.map((m) => m.wordIndices)).toEqual([[3, 4]]);
      expect(store.versionMove('redo')).toEqual({ direction: 'redo', target: 1, expected: 0 });
      store.completeVersionMove('redo', { ...cut, version: 4 });
      expect(texts(store)).toEqual(['one', 'four', 'five']);
      expect(store.getSnapshot().pendingMutes.map((m) => m.wordIndices)).toEqual([[1, 2]]);
      // the mute entry under it is a local step again once the version is undone
      store.completeVersionMove('undo', { ...t, version: 5 });
      expect(store.versionMove('undo')).toBeNull();
      expect(store.undo()).toBe(true);
      expect(store.getSnapshot().pendingMutes).toEqual([]);
    });

    it('a mute whose words were removed goes with them, and the person is told', () => {
      const t = transcript(['one', 'two', 'three']);
      const notices: string[] = [];
      const store = new EditorStore({ videoId: 'v1', transcript: t, saver: new FakeServer(t), onNotice: (n) => notices.push(n.description) });
      store.markMutes([1], 'silence');
      store.receive(rendered(t, [0, 2], 2), step([[0, 1], [2, 1]]));
      expect(store.getSnapshot().pendingMutes).toEqual([]);
      expect(notices).toEqual(['1 pending mute covered only words that are no longer in the video. Undo brings them back.']);
    });

    it('without a version step, other words from the server still reset the history (another tab)', () => {
      const t = transcript(['one', 'two', 'three']);
      const store = make(t, new FakeServer(t));
      store.markMutes([1], 'silence');
      expect(store.receive(rendered(t, [0, 2], 2))).toBe(false);
      expect(store.getSnapshot().history.entries).toEqual([]);
    });

    it('Clear history goes back to how the current version began, and keeps the version steps', async () => {
      const t = transcript(['one', 'two', 'three']);
      const server = new FakeServer(t);
      const store = make(t, server);
      const cut = rendered(t, [0, 2], 2);
      server.version = 2;
      server.content = { words: cut.words, paragraphs: cut.paragraphs, fillerWords: cut.fillerWords };
      store.receive(cut, step([[0, 1], [2, 1]]));
      store.edit('edit-word', 'Edit', replaceRunDeltas(store.getSnapshot().content.words, 0, 0, 'ONE'));
      await settle(store);
      expect(await store.revertAll()).toBe(true);
      expect(texts(store)).toEqual(['one', 'three']);
      expect(store.getSnapshot().history.entries.map((e) => e.operation)).toEqual(['process']);
    });

    it('a version step survives a reload with its marks', () => {
      const t = transcript(['one', 'two', 'three']);
      const storage = new MemoryStorage();
      const store = make(t, new FakeServer(t), storage);
      store.markMutes([2], 'background');
      const cut = rendered(t, [0, 2], 2);
      store.receive(cut, step([[0, 1], [2, 1]]));
      store.persist();
      const again = make(cut, new FakeServer(cut), storage);
      expect(again.versionMove('undo')).toEqual({ direction: 'undo', target: 0, expected: 1 });
      expect(again.getSnapshot().pendingMutes.map((m) => m.wordIndices)).toEqual([[1]]);
    });
  });
});
