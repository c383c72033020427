import type { Transcript, Word } from '@wordcut/contracts';
import { attachParagraphs, buildParagraphs } from '@wordcut/transcript';
import type { ToastInput } from '@wordcut/ui';
import { EditorStore } from './editorStore';
import { stepHistory } from './versionCommands';
import type { VersionCommandContext } from './versionCommands';

function transcript(texts: string[], version: number): Transcript {
  const words: Word[] = texts.map((text, i) => ({ text, start: i, end: i + 0.8, confidence: 0.95, group_number: 0, word_order: i }));
  return { id: 't1', videoId: 'v1', version, languageCode: 'en', ...attachParagraphs(words, buildParagraphs(words)), fillerWords: [], updatedAt: new Date(0).toISOString() };
}

/** A server holding versions 0 (three words) and 1 (the middle one cut), showing 1. */
function setup() {
  const original = transcript(['one', 'two', 'three'], 1);
  const cut = transcript(['one', 'three'], 2);
  const editor = new EditorStore({ videoId: 'v1', transcript: original, saver: { save: async (_id, v) => v + 1 } });
  editor.receive(cut, { before: 0, after: 1, origins: [[0, 1], [2, 1]], operation: 'process', description: 'Processing video' });
  const server = { shown: 1, transcriptVersion: 2, calls: [] as string[] };
  const toasts: ToastInput[] = [];
  let moving: string | null = null;
  const context: VersionCommandContext = {
    videoId: 'v1',
    editor,
    restore: async (_video, seq, expected) => {
      server.calls.push(`restore ${seq} from ${expected}`);
      if (expected !== server.shown) throw new Error('This video changed since you loaded it');
      server.shown = seq;
    },
    fetchTranscript: async () => {
      server.calls.push('transcript');
      return server.shown === 0 ? transcript(['one', 'two', 'three'], ++server.transcriptVersion) : transcript(['one', 'three'], ++server.transcriptVersion);
    },
    refreshVideo: async () => {
      server.calls.push('refresh');
    },
    toast: (t) => toasts.push(t),
    setMoving: (m) => (moving = m),
    isMoving: () => moving !== null,
  };
  return { editor, server, context, toasts };
}

const words = (e: EditorStore) => e.getSnapshot().content.words.map((w) => w.text);

describe('stepHistory (undo and redo across versions)', () => {
  it('undo of a processed cut restores the version before, then shows its words and media; redo the cut again', async () => {
    const { editor, server, context } = setup();
    await stepHistory(context, 'undo');
    expect(server.calls).toEqual(['restore 0 from 1', 'transcript', 'refresh']);
    expect(words(editor)).toEqual(['one', 'two', 'three']);
    await stepHistory(context, 'redo');
    expect(server.shown).toBe(1);
    expect(words(editor)).toEqual(['one', 'three']);
  });

  it('a refused step changes nothing and says why', async () => {
    const { editor, server, context, toasts } = setup();
    server.shown = 7;
    await stepHistory(context, 'undo');
    expect(words(editor)).toEqual(['one', 'three']);
    expect(editor.versionMove('undo')).not.toBeNull();
    expect(toasts).toEqual([expect.objectContaining({ title: 'Undo failed', description: expect.stringContaining('changed since you loaded it') })]);
  });

  it('one step at a time: a second press while the first runs does nothing', async () => {
    const { server, context } = setup();
    await Promise.all([stepHistory(context, 'undo'), stepHistory(context, 'undo')]);
    expect(server.calls.filter((c) => c.startsWith('restore'))).toEqual(['restore 0 from 1']);
  });

  it('local steps stay local', async () => {
    const { editor, server, context } = setup();
    editor.markCuts([0]);
    await stepHistory(context, 'undo');
    expect(editor.getSnapshot().pendingCuts).toEqual([]);
    expect(server.calls).toEqual([]);
  });
});
