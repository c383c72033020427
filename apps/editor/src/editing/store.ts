import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Transcript, WordDelta } from '@wordcut/contracts';
import {
  EMPTY_HISTORY,
  EMPTY_SELECTION,
  FILLER_RECOMPUTE_DEBOUNCE_MS,
  applyEdit,
  deltasBetween,
  deserializeHistory,
  contentFingerprint,
  fillerSet,
  findMatches,
  markCuts,
  markMutes,
  pushEntry,
  redoStep,
  remapPending,
  serializeHistory,
  undoStep,
  unmarkCuts,
  unmarkMutes,
  wordMarks,
} from '@wordcut/editor-core';
import type {
  EditOperation,
  History,
  PendingCut,
  PendingMute,
  SearchMatch,
  Selection,
  WordRange,
} from '@wordcut/editor-core';
import type { TranscriptContent } from '@wordcut/transcript';
import type { MuteLevel } from '@wordcut/edit-list';

/**
 * The transcript editor's state, outside React (like the playback store): the words being
 * edited, the selection, pending cuts and mutes, the undo history and the search. Components
 * subscribe with selectors, so a selection change re-renders only the paragraphs whose
 * decoration changed (the list is virtualised: a few dozen at most).
 *
 * Direct edits (word edit, cut selection, paste, single filler removal, delete) are applied
 * here at once with the server's own delta function, pushed on the history, and saved in
 * order through {@link TranscriptSaver}; a failed save rolls the edit (and any queued after
 * it) back. History and pending marks are kept in localStorage per video so a reload keeps
 * them while the server transcript is still the one they were made on.
 */

/** What the store saves with: PATCH /api/transcripts/{id}, conditional on the version. */
export type TranscriptSavePayload =
  | { wordDeltas: WordDelta[] }
  | { words: TranscriptContent['words']; paragraphs: TranscriptContent['paragraphs']; fillerWords: number[] };

export interface TranscriptSaver {
  /** Resolves with the transcript's new version. */
  save(transcriptId: string, version: number, payload: TranscriptSavePayload): Promise<number>;
}

/** Where history and pending marks live between page loads (localStorage in the browser). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface SearchState {
  query: string;
  matches: readonly SearchMatch[];
  /** index into matches, -1 when none */
  current: number;
}

export interface EditorSnapshot {
  transcriptId: string;
  /** the version the server confirmed last */
  version: number;
  content: TranscriptContent;
  /** per word: pending cut / mute level bits (see wordMarks) */
  marks: Uint8Array;
  /** per word: 1 when a filler (updated FILLER_RECOMPUTE_DEBOUNCE_MS after an edit) */
  fillers: Uint8Array;
  fillerCount: number;
  /** per word: 1 in a search result, 2 in the current one */
  found: Uint8Array;
  selection: Selection;
  /** the word shift-extension grows from */
  anchor: number | null;
  pendingCuts: readonly PendingCut[];
  pendingMutes: readonly PendingMute[];
  history: History;
  search: SearchState;
  /** saves sent and not answered */
  saving: number;
  /** bumps on every content change (cheap equality for effects) */
  revision: number;
  /** keep-selection preview: the words that would stay (the rest is dimmed) */
  keepPreview: WordRange | null;
}

export interface EditResult {
  ok: boolean;
}

/** Failure callback: the store has already rolled back. */
export type SaveFailureListener = (error: unknown) => void;

export const STORAGE_PREFIX = 'wordcut_editor_';
const PERSIST_DEBOUNCE_MS = 400;

interface QueuedSave {
  /** the history as it was before this change: a failed save puts it back */
  historyBefore: History;
  after: TranscriptContent;
  /** computed when sent, off the key press (undo/redo diff the states) */
  payload: () => TranscriptSavePayload;
}

interface Persisted {
  v: 1;
  history: string;
  pendingCuts: PendingCut[];
  pendingMutes: PendingMute[];
}

let idCounter = 0;
const newId = () => `h${Date.now().toString(36)}${(idCounter++).toString(36)}`;

export interface EditorStoreOptions {
  videoId: string;
  transcript: Pick<Transcript, 'id' | 'version' | 'words' | 'paragraphs' | 'fillerWords'>;
  saver: TranscriptSaver;
  storage?: KeyValueStorage | null;
  onSaveFailed?: SaveFailureListener;
  /** timers, replaceable in tests */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export class EditorStore {
  private snapshot: EditorSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly queue: QueuedSave[] = [];
  private sending = false;
  /** content and version the server holds (after the last confirmed save) */
  private confirmed: { content: TranscriptContent; version: number };
  private fillerTimer: unknown = null;
  private persistTimer: unknown = null;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  onSaveFailed: SaveFailureListener | undefined;

  constructor(private readonly options: EditorStoreOptions) {
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.onSaveFailed = options.onSaveFailed;
    const content = contentOf(options.transcript);
    this.confirmed = { content, version: options.transcript.version };
    this.snapshot = this.initialSnapshot(options.transcript.id, options.transcript.version, content);
  }

  // ---- subscription -------------------------------------------------------------------------

  getSnapshot = (): EditorSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<EditorSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of this.listeners) l();
  }

  dispose(): void {
    if (this.fillerTimer) this.clearTimer(this.fillerTimer);
    if (this.persistTimer) {
      this.clearTimer(this.persistTimer);
      this.persist();
    }
    this.listeners.clear();
  }

  // ---- server state -------------------------------------------------------------------------

  /**
   * A transcript from the server (query refetch). Ignored while saves are in flight or when it
   * is the version we already hold; otherwise (a job re-timed it, another tab edited it) it
   * replaces the content, and the history survives only if it was made on this very content.
   */
  receive(transcript: Pick<Transcript, 'id' | 'version' | 'words' | 'paragraphs' | 'fillerWords'>): void {
    if (this.queue.length > 0 || this.sending) return;
    if (transcript.id === this.snapshot.transcriptId && transcript.version === this.confirmed.version) return;
    const content = contentOf(transcript);
    this.confirmed = { content, version: transcript.version };
    const prev = this.snapshot;
    const same = prev.transcriptId === transcript.id && contentFingerprint(content) === contentFingerprint(prev.content);
    if (same) {
      // a render that left the words as they were (mutes): history and marks still apply
      this.set({ version: transcript.version, content });
    } else {
      // the words changed elsewhere (a cut re-timed them, another tab): what was made on the old ones no longer applies
      const n = content.words.length;
      this.snapshot = {
        ...prev,
        transcriptId: transcript.id,
        version: transcript.version,
        content,
        marks: new Uint8Array(n),
        fillers: fillerSet(content.fillerWords, n),
        fillerCount: content.fillerWords.length,
        found: new Uint8Array(n),
        selection: EMPTY_SELECTION,
        anchor: null,
        pendingCuts: [],
        pendingMutes: [],
        history: EMPTY_HISTORY,
        keepPreview: null,
        revision: prev.revision + 1,
      };
      for (const l of this.listeners) l();
      if (this.snapshot.search.query) this.setSearch(this.snapshot.search.query);
    }
    this.persist();
  }

  private initialSnapshot(transcriptId: string, version: number, content: TranscriptContent): EditorSnapshot {
    const restored = this.restore(content);
    const n = content.words.length;
    const pendingCuts = restored ? remapPending(restored.pendingCuts, content.words) : [];
    const pendingMutes = restored ? remapPending(restored.pendingMutes, content.words) : [];
    const fillers = fillerSet(content.fillerWords, n);
    return {
      transcriptId,
      version,
      content,
      marks: wordMarks(pendingCuts, pendingMutes, n),
      fillers,
      fillerCount: content.fillerWords.length,
      found: new Uint8Array(n),
      selection: EMPTY_SELECTION,
      anchor: null,
      pendingCuts,
      pendingMutes,
      history: restored?.history ?? EMPTY_HISTORY,
      search: { query: '', matches: [], current: -1 },
      saving: 0,
      revision: 0,
      keepPreview: null,
    };
  }

  // ---- selection ----------------------------------------------------------------------------

  select(selection: Selection, anchor: number | null = this.snapshot.anchor): void {
    if (selection === this.snapshot.selection && anchor === this.snapshot.anchor) return;
    this.set({ selection, anchor });
  }

  setKeepPreview(range: WordRange | null): void {
    if (range === this.snapshot.keepPreview) return;
    this.set({ keepPreview: range });
  }

  clearSelection(): void {
    if (this.snapshot.selection.length === 0) return;
    this.set({ selection: EMPTY_SELECTION, anchor: null });
  }

  // ---- pending marks ------------------------------------------------------------------------

  markCuts(indices: readonly number[]): void {
    if (indices.length === 0) return;
    this.setPending(markCuts(this.snapshot.pendingCuts as PendingCut[], this.snapshot.content.words, indices), this.snapshot.pendingMutes);
  }

  unmarkCuts(indices: readonly number[]): void {
    this.setPending(unmarkCuts(this.snapshot.pendingCuts as PendingCut[], this.snapshot.content.words, indices), this.snapshot.pendingMutes);
  }

  clearCuts(): void {
    this.setPending([], this.snapshot.pendingMutes);
  }

  markMutes(indices: readonly number[], level: MuteLevel): void {
    if (indices.length === 0) return;
    this.setPending(this.snapshot.pendingCuts, markMutes(this.snapshot.pendingMutes as PendingMute[], this.snapshot.content.words, indices, level));
  }

  unmarkMutes(indices: readonly number[]): void {
    this.setPending(this.snapshot.pendingCuts, unmarkMutes(this.snapshot.pendingMutes as PendingMute[], this.snapshot.content.words, indices));
  }

  clearMutes(): void {
    this.setPending(this.snapshot.pendingCuts, []);
  }

  private setPending(pendingCuts: readonly PendingCut[], pendingMutes: readonly PendingMute[]): void {
    if (pendingCuts === this.snapshot.pendingCuts && pendingMutes === this.snapshot.pendingMutes) return;
    this.set({
      pendingCuts,
      pendingMutes,
      marks: wordMarks(pendingCuts as PendingCut[], pendingMutes as PendingMute[], this.snapshot.content.words.length),
    });
    this.schedulePersist();
  }

  // ---- direct edits -------------------------------------------------------------------------

  /**
   * Applies word deltas at once (the server's own function computes the new content), records
   * them on the history and queues the save. Returns false (and changes nothing) when the
   * deltas do not apply.
   */
  edit(operation: EditOperation, description: string, deltas: readonly WordDelta[]): boolean {
    if (deltas.length === 0) return false;
    const before = this.snapshot.content;
    let after: TranscriptContent;
    try {
      after = applyEdit(before, deltas);
    } catch {
      return false;
    }
    const wordDeltas = [...deltas];
    this.commit(operation, description, before, after, () => ({ wordDeltas }));
    return true;
  }

  /** Replaces the filler list (Ctrl/Cmd+M): a full replacement, as deltas cannot carry it. */
  setFillers(fillerWords: readonly number[], description: string): boolean {
    const before = this.snapshot.content;
    const sorted = [...new Set(fillerWords)].sort((a, b) => a - b);
    if (sameNumbers(sorted, before.fillerWords)) return false;
    const after: TranscriptContent = { ...before, fillerWords: sorted };
    this.commit('detect-fillers', description, before, after, () => fullReplacement(after));
    return true;
  }

  private commit(operation: EditOperation, description: string, before: TranscriptContent, after: TranscriptContent, payload: () => TranscriptSavePayload): void {
    const historyBefore = this.snapshot.history;
    const history = pushEntry(historyBefore, {
      id: newId(),
      timestamp: Date.now(),
      operation,
      description,
      beforeState: before,
      afterState: after,
    });
    this.applyContent(after, { history });
    this.enqueue({ historyBefore, after, payload });
  }

  undo(): boolean {
    const step = undoStep(this.snapshot.history);
    if (!step) return false;
    this.move(step.entry.afterState, step.entry.beforeState, step.history);
    return true;
  }

  redo(): boolean {
    const step = redoStep(this.snapshot.history);
    if (!step) return false;
    this.move(step.entry.beforeState, step.entry.afterState, step.history);
    return true;
  }

  private move(from: TranscriptContent, to: TranscriptContent, history: History): void {
    const historyBefore = this.snapshot.history;
    this.applyContent(to, { history });
    this.enqueue({ historyBefore, after: to, payload: () => movePayload(from, to) });
  }

  /**
   * Clear history: back to the original content (the first entry's before state), saved as a
   * full replacement. Resolves false when there is nothing to clear; rejects (history kept)
   * when the save fails.
   */
  async revertAll(): Promise<boolean> {
    const { history } = this.snapshot;
    if (history.entries.length === 0) return false;
    const original = history.entries[0]!.beforeState;
    await this.flush();
    const version = await this.options.saver.save(this.snapshot.transcriptId, this.confirmed.version, fullReplacement(original));
    this.confirmed = { content: original, version };
    this.applyContent(original, { history: EMPTY_HISTORY, version });
    return true;
  }

  private applyContent(content: TranscriptContent, extra: Partial<EditorSnapshot>): void {
    const s = this.snapshot;
    const n = content.words.length;
    const sameWords = content.words === s.content.words;
    const pendingCuts = sameWords ? s.pendingCuts : remapPending(s.pendingCuts as PendingCut[], content.words);
    const pendingMutes = sameWords ? s.pendingMutes : remapPending(s.pendingMutes as PendingMute[], content.words);
    const selection = sameWords ? s.selection : clampTo(s.selection, n);
    this.set({
      ...extra,
      content,
      pendingCuts,
      pendingMutes,
      marks: sameWords ? s.marks : wordMarks(pendingCuts as PendingCut[], pendingMutes as PendingMute[], n),
      fillers: s.fillers.length === n ? s.fillers : fillerSet([], n),
      found: s.found.length === n ? s.found : new Uint8Array(n),
      selection,
      anchor: s.anchor !== null && s.anchor < n ? s.anchor : null,
      revision: s.revision + 1,
    });
    this.scheduleFillers();
    if (this.snapshot.search.query) this.setSearch(this.snapshot.search.query, true);
    this.schedulePersist();
  }

  /** Filler highlights follow edits after FILLER_RECOMPUTE_DEBOUNCE_MS (seed 000 §5). */
  private scheduleFillers(): void {
    if (this.fillerTimer) this.clearTimer(this.fillerTimer);
    this.fillerTimer = this.setTimer(() => {
      this.fillerTimer = null;
      this.refreshFillers();
    }, FILLER_RECOMPUTE_DEBOUNCE_MS);
  }

  /** Shows the current filler list now (tests and the debounce timer). */
  refreshFillers(): void {
    const { content } = this.snapshot;
    this.set({ fillers: fillerSet(content.fillerWords, content.words.length), fillerCount: content.fillerWords.length });
  }

  // ---- saving -------------------------------------------------------------------------------

  private enqueue(item: QueuedSave): void {
    this.queue.push(item);
    this.set({ saving: this.snapshot.saving + 1 });
    // start sending after this task: the key press paints first, the payload (a diff for undo) is built after
    this.setTimer(() => void this.pump(), 0);
  }

  /** Resolves once every queued save is answered. */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.sending) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  private async pump(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        const item = this.queue[0]!;
        try {
          const version = await this.options.saver.save(this.snapshot.transcriptId, this.confirmed.version, item.payload());
          this.queue.shift();
          this.confirmed = { content: item.after, version };
          this.set({ version, saving: Math.max(0, this.snapshot.saving - 1) });
          if (this.queue.length === 0) this.persistSoon();
        } catch (error) {
          this.rollback(item, error);
        }
      }
    } finally {
      this.sending = false;
    }
  }

  /**
   * The failed save and everything queued after it are undone: the content goes back to what
   * the server holds (the failed change's starting point) and the history to what it was then.
   */
  private rollback(failed: QueuedSave, error: unknown): void {
    this.queue.length = 0;
    this.applyContent(this.confirmed.content, { history: failed.historyBefore, saving: 0 });
    this.onSaveFailed?.(error);
  }

  // ---- search -------------------------------------------------------------------------------

  /** Runs the search now (the component debounces typing by SEARCH_DEBOUNCE_MS). */
  setSearch(query: string, keepCurrent = false): void {
    const { content, search } = this.snapshot;
    const matches = findMatches(content.words, query);
    const current = matches.length === 0 ? -1 : keepCurrent ? Math.min(Math.max(0, search.current), matches.length - 1) : 0;
    this.set({ search: { query, matches, current }, found: foundMask(matches, current, content.words.length) });
  }

  stepSearch(dir: 1 | -1): SearchMatch | null {
    const { search, content } = this.snapshot;
    if (search.matches.length === 0) return null;
    const current = (search.current + dir + search.matches.length) % search.matches.length;
    this.set({ search: { ...search, current }, found: foundMask(search.matches, current, content.words.length) });
    return search.matches[current]!;
  }

  // ---- persistence --------------------------------------------------------------------------

  private get storageKey(): string {
    return `${STORAGE_PREFIX}${this.options.videoId}`;
  }

  private restore(content: TranscriptContent): { history: History; pendingCuts: PendingCut[]; pendingMutes: PendingMute[] } | null {
    const storage = this.options.storage;
    if (!storage) return null;
    try {
      const raw = storage.getItem(this.storageKey);
      if (!raw) return null;
      const data = JSON.parse(raw) as Persisted;
      if (data.v !== 1) return null;
      const history = deserializeHistory(data.history, content);
      if (!history) {
        storage.removeItem(this.storageKey);
        return null;
      }
      return { history, pendingCuts: data.pendingCuts ?? [], pendingMutes: data.pendingMutes ?? [] };
    } catch {
      return null;
    }
  }

  /** After the last queued save is confirmed: write at once (outside the pump loop, which is still 'sending'). */
  private persistSoon(): void {
    if (this.persistTimer) this.clearTimer(this.persistTimer);
    this.persistTimer = this.setTimer(() => {
      this.persistTimer = null;
      this.persist();
    }, 0);
  }

  private schedulePersist(): void {
    if (!this.options.storage) return;
    if (this.persistTimer) this.clearTimer(this.persistTimer);
    this.persistTimer = this.setTimer(() => {
      this.persistTimer = null;
      this.persist();
    }, PERSIST_DEBOUNCE_MS);
  }

  /**
   * Writes history (anchored at what the server holds, so a reload can verify it) and pending
   * marks. Only when no save is outstanding: an unconfirmed state must not become the anchor.
   */
  persist(): void {
    const storage = this.options.storage;
    if (!storage) return;
    if (this.queue.length > 0 || this.sending) {
      this.schedulePersist();
      return;
    }
    const { history, pendingCuts, pendingMutes } = this.snapshot;
    try {
      if (history.entries.length === 0 && pendingCuts.length === 0 && pendingMutes.length === 0) {
        storage.removeItem(this.storageKey);
        return;
      }
      const data: Persisted = {
        v: 1,
        history: serializeHistory(history, this.confirmed.content),
        pendingCuts: [...pendingCuts],
        pendingMutes: [...pendingMutes],
      };
      storage.setItem(this.storageKey, JSON.stringify(data));
    } catch {
      // storage full or blocked: the session still works, it just won't survive a reload
    }
  }
}

function contentOf(t: Pick<Transcript, 'words' | 'paragraphs' | 'fillerWords'>): TranscriptContent {
  return { words: t.words, paragraphs: t.paragraphs, fillerWords: t.fillerWords };
}

function fullReplacement(c: TranscriptContent): TranscriptSavePayload {
  return { words: c.words, paragraphs: c.paragraphs, fillerWords: c.fillerWords };
}

/** An undo/redo move: word deltas when they express it exactly, else a full replacement. */
function movePayload(from: TranscriptContent, to: TranscriptContent): TranscriptSavePayload {
  const deltas = deltasBetween(from, to);
  if (deltas && deltas.length > 0) return { wordDeltas: deltas };
  return fullReplacement(to);
}

function foundMask(matches: readonly SearchMatch[], current: number, n: number): Uint8Array {
  const mask = new Uint8Array(n);
  matches.forEach((m, k) => {
    for (let i = m.first; i <= m.last && i < n; i++) mask[i] = k === current ? 2 : 1;
  });
  return mask;
}

function clampTo(selection: Selection, n: number): Selection {
  const out = selection.filter((r) => r.start < n).map((r) => (r.end < n ? r : { start: r.start, end: n - 1 }));
  return out.length === selection.length && out.every((r, i) => r === selection[i]) ? selection : out;
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

export const EditorStoreContext = createContext<EditorStore | null>(null);

export function useEditorStore(): EditorStore {
  const store = useContext(EditorStoreContext);
  if (!store) throw new Error('useEditorStore: no EditorStoreContext provider above this component');
  return store;
}

/** A value derived from the editor state; re-renders only when it changes (Object.is). */
export function useEditor<T>(select: (s: EditorSnapshot) => T): T {
  const store = useEditorStore();
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.getSnapshot()),
    () => select(store.getSnapshot()),
  );
}
