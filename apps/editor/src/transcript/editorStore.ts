/**
 * The editor's one external store (ADR 0009): the wiring that keeps the transcript, selection,
 * pending marks and undo history in step. What each command changes is computed by plain functions
 * (markChanges.ts, contentChanges.ts); the save queue and persistence are in their own files.
 */
import type { WordDelta } from '@wordcut/contracts';
import { EMPTY_HISTORY, EMPTY_SELECTION, FILLER_RECOMPUTE_DEBOUNCE_MS, applyEdit, contentFingerprint, redoStep, undoStep } from '@wordcut/editor-core';
import type { EditOperation, History, MarkSet, SearchMatch, Selection, TimeRange, WordRange } from '@wordcut/editor-core';
import type { MuteLevel } from '@wordcut/edit-list';
import type { TranscriptContent } from '@wordcut/transcript';
import { createStore } from '@wordcut/ui';
import type { Store } from '@wordcut/ui';
import { contentPatch, editHistory, fillerPatch, replacedTranscript, searchPatch, searchStep } from './contentChanges';
import type { ServerTranscript } from './contentChanges';
import { EditPersistence } from './editPersistence';
import type { KeyValueStorage } from './editPersistence';
import { contentOf, initialSnapshot, movePayload, sameNumbers } from './editorSnapshot';
import type { EditorSnapshot } from './editorSnapshot';
import {
  clearCutsChange,
  clearMutesChange,
  keepPreviewChange,
  markCutsChange,
  markMutesChange,
  marksPatch,
  recordedMarks,
  restoreChange,
  settledMarks,
  unmarkCutsChange,
  unmarkMutesChange,
} from './markChanges';
import type { MarkChange } from './markChanges';
import { SaveQueue, fullReplacement } from './saveQueue';
import type { QueuedSave, TranscriptSavePayload, TranscriptSaver } from './saveQueue';

/**
 * The transcript editor's state, outside React: the words being edited, the selection, pending
 * cuts and mutes, the undo history, the search and the keep preview. Components subscribe with
 * selectors, so a selection change re-renders only the paragraphs whose decoration changed (the
 * list is virtualised: a few dozen at most).
 *
 * Direct edits (word edit, cut selection, paste, single filler removal, delete) are applied here
 * at once with the server's own delta function, pushed on the history, and saved in order by the
 * {@link SaveQueue}; a failed save rolls the edit (and any queued after it) back. History and
 * pending marks are kept per video by {@link EditPersistence}, so a reload keeps them while the
 * server transcript is still the one they were made on.
 */

export type { KeyValueStorage } from './editPersistence';
export { STORAGE_PREFIX } from './editPersistence';
export type { TranscriptSavePayload, TranscriptSaver } from './saveQueue';
export type { EditorSnapshot, SearchState } from './editorSnapshot';

/** Failure callback: the store has already rolled back. */
export type SaveFailureListener = (error: unknown) => void;

export interface EditorStoreOptions {
  videoId: string;
  transcript: ServerTranscript;
  saver: TranscriptSaver;
  storage?: KeyValueStorage | null;
  onSaveFailed?: SaveFailureListener;
  /** timers, replaceable in tests */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export class EditorStore {
  private readonly state: Store<EditorSnapshot>;
  private readonly saves: SaveQueue;
  private readonly persistence: EditPersistence;
  private fillerTimer: unknown = null;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  onSaveFailed: SaveFailureListener | undefined;

  constructor(options: EditorStoreOptions) {
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
    this.onSaveFailed = options.onSaveFailed;
    const content = contentOf(options.transcript);
    this.saves = new SaveQueue(
      { content, version: options.transcript.version },
      {
        saver: options.saver,
        transcriptId: () => this.getSnapshot().transcriptId,
        setTimer: this.setTimer,
        onSaved: (version, idle) => {
          this.set({ version, saving: Math.max(0, this.getSnapshot().saving - 1) });
          if (idle) this.persistence.soon();
        },
        onFailed: (failed, error) => this.rollback(failed, error),
      },
    );
    this.persistence = new EditPersistence({
      storage: options.storage,
      videoId: options.videoId,
      setTimer: this.setTimer,
      clearTimer: this.clearTimer,
      canWrite: () => !this.saves.busy,
      current: () => {
        const { history, pendingCuts, pendingMutes } = this.getSnapshot();
        return { history, pendingCuts: [...pendingCuts], pendingMutes: [...pendingMutes], confirmed: this.saves.confirmed.content };
      },
    });
    this.state = createStore(initialSnapshot(options.transcript.id, options.transcript.version, content, this.persistence.restore(content)));
  }

  // ---- subscription -------------------------------------------------------------------------

  getSnapshot = (): EditorSnapshot => this.state.get();

  subscribe = (listener: () => void): (() => void) => this.state.subscribe(listener);

  private set(patch: Partial<EditorSnapshot>): void {
    this.state.set({ ...this.state.get(), ...patch });
  }

  dispose(): void {
    if (this.fillerTimer) this.clearTimer(this.fillerTimer);
    this.persistence.dispose();
  }

  // ---- server state -------------------------------------------------------------------------

  /**
   * A transcript from the server (query refetch). Ignored while saves are in flight or when it
   * is the version we already hold; otherwise (a job re-timed it, another tab edited it) it
   * replaces the content, and the history survives only if it was made on this very content.
   */
  receive(transcript: ServerTranscript): void {
    if (this.saves.busy) return;
    const previous = this.getSnapshot();
    if (transcript.id === previous.transcriptId && transcript.version === this.saves.confirmed.version) return;
    const content = contentOf(transcript);
    this.saves.confirmed = { content, version: transcript.version };
    const sameWords = previous.transcriptId === transcript.id && contentFingerprint(content) === contentFingerprint(previous.content);
    if (sameWords) {
      // a render that left the words as they were (mutes): history and marks still apply
      this.set({ version: transcript.version, content });
    } else {
      // the words changed elsewhere (a cut re-timed them, another tab): what was made on the old ones no longer applies
      this.state.set(replacedTranscript(previous, transcript, content));
      if (this.getSnapshot().search.query) this.setSearch(this.getSnapshot().search.query);
    }
    this.persist();
  }

  // ---- selection ----------------------------------------------------------------------------

  select(selection: Selection, anchor: number | null = this.getSnapshot().anchor): void {
    const current = this.getSnapshot();
    if (selection === current.selection && anchor === current.anchor) return;
    this.set({ selection, anchor });
  }

  /** Starts (with the ranges it would cut) or ends (null) the keep-selection preview: undoable. */
  setKeepPreview(range: WordRange | null, cuts: readonly TimeRange[] = []): void {
    if (range === this.getSnapshot().keepPreview) return;
    this.recordMarks(keepPreviewChange(this.getSnapshot(), range, cuts));
  }

  /** A job took the keep preview (or it ended with the job): it leaves the preview and the history. */
  settleKeep(): void {
    this.settle('keep');
  }

  clearSelection(): void {
    if (this.getSnapshot().selection.length === 0) return;
    this.set({ selection: EMPTY_SELECTION, anchor: null });
  }

  // ---- pending marks ------------------------------------------------------------------------
  // Every user change of the marks is one undoable history entry; jobs settle marks without one.

  markCuts(indices: readonly number[]): void {
    if (indices.length === 0) return;
    this.recordMarks(markCutsChange(this.getSnapshot(), indices));
  }

  unmarkCuts(indices: readonly number[]): void {
    this.recordMarks(unmarkCutsChange(this.getSnapshot(), indices));
  }

  /** Cancel Cuts: drops every cut mark (undoable). */
  clearCuts(): void {
    this.recordMarks(clearCutsChange());
  }

  markMutes(indices: readonly number[], level: MuteLevel): void {
    if (indices.length === 0) return;
    this.recordMarks(markMutesChange(this.getSnapshot(), indices, level));
  }

  unmarkMutes(indices: readonly number[]): void {
    this.recordMarks(unmarkMutesChange(this.getSnapshot(), indices));
  }

  /** Clear Mutes: drops every mute mark (undoable). */
  clearMutes(): void {
    this.recordMarks(clearMutesChange());
  }

  /** Restore word: the words lose their cut and mute marks, as one undoable step. */
  restoreWords(indices: readonly number[]): void {
    if (indices.length === 0) return;
    this.recordMarks(restoreChange(this.getSnapshot(), indices));
  }

  /** A job applied the cut marks: they leave the marks and the history. */
  settleCuts(): void {
    this.settle('cuts');
  }

  /** A job processed the mute marks: they leave the marks and the history. */
  settleMutes(): void {
    this.settle('mutes');
  }

  private settle(kind: keyof MarkSet): void {
    const { marks, history } = settledMarks(this.getSnapshot(), kind);
    this.applyMarks(marks, { history });
  }

  private recordMarks(change: MarkChange): void {
    const recorded = recordedMarks(this.getSnapshot(), change);
    if (recorded) this.applyMarks(recorded.marks, { history: recorded.history });
  }

  /** Puts marks in place and schedules their persistence. */
  private applyMarks(marks: Partial<MarkSet>, extra: Partial<EditorSnapshot> = {}): void {
    this.set(marksPatch(this.getSnapshot(), marks, extra));
    this.persistence.schedule();
  }

  // ---- direct edits -------------------------------------------------------------------------

  /**
   * Applies word deltas at once (the server's own function computes the new content), records
   * them on the history and queues the save. Returns false (and changes nothing) when the
   * deltas do not apply.
   */
  edit(operation: EditOperation, description: string, deltas: readonly WordDelta[]): boolean {
    if (deltas.length === 0) return false;
    const before = this.getSnapshot().content;
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
    const before = this.getSnapshot().content;
    const sorted = [...new Set(fillerWords)].sort((a, b) => a - b);
    if (sameNumbers(sorted, before.fillerWords)) return false;
    const after: TranscriptContent = { ...before, fillerWords: sorted };
    this.commit('detect-fillers', description, before, after, () => fullReplacement(after));
    return true;
  }

  private commit(operation: EditOperation, description: string, before: TranscriptContent, after: TranscriptContent, payload: () => TranscriptSavePayload): void {
    const historyBefore = this.getSnapshot().history;
    const history = editHistory(historyBefore, operation, description, before, after);
    this.applyContent(after, { history });
    this.enqueue({ historyBefore, after, payload });
  }

  /** Undo the last entry: text edits are saved back, marks entries restore the marks they replaced. */
  undo(): boolean {
    const step = undoStep(this.getSnapshot().history);
    if (!step) return false;
    const { marks } = step.entry;
    if (marks) this.applyMarks(marks.before, { history: step.history });
    else this.move(step.entry.afterState, step.entry.beforeState, step.history);
    return true;
  }

  redo(): boolean {
    const step = redoStep(this.getSnapshot().history);
    if (!step) return false;
    const { marks } = step.entry;
    if (marks) this.applyMarks(marks.after, { history: step.history });
    else this.move(step.entry.beforeState, step.entry.afterState, step.history);
    return true;
  }

  private move(from: TranscriptContent, to: TranscriptContent, history: History): void {
    const historyBefore = this.getSnapshot().history;
    this.applyContent(to, { history });
    this.enqueue({ historyBefore, after: to, payload: () => movePayload(from, to) });
  }

  /**
   * Clear history: back to the original content (the first entry's before state), saved as a
   * full replacement. Resolves false when there is nothing to clear; rejects (history kept)
   * when the save fails.
   */
  async revertAll(): Promise<boolean> {
    const { history } = this.getSnapshot();
    if (history.entries.length === 0) return false;
    const original = history.entries[0]!.beforeState;
    const version = await this.saves.saveNow(original, fullReplacement(original));
    this.applyContent(original, { history: EMPTY_HISTORY, version });
    return true;
  }

  private applyContent(content: TranscriptContent, extra: Partial<EditorSnapshot>): void {
    this.set(contentPatch(this.getSnapshot(), content, extra));
    this.scheduleFillers();
    if (this.getSnapshot().search.query) this.setSearch(this.getSnapshot().search.query, true);
    this.persistence.schedule();
  }

  /** Filler highlights follow edits FILLER_RECOMPUTE_DEBOUNCE_MS after the last one. */
  private scheduleFillers(): void {
    if (this.fillerTimer) this.clearTimer(this.fillerTimer);
    this.fillerTimer = this.setTimer(() => {
      this.fillerTimer = null;
      this.refreshFillers();
    }, FILLER_RECOMPUTE_DEBOUNCE_MS);
  }

  /** Shows the current filler list now (tests and the debounce timer). */
  refreshFillers(): void {
    this.set(fillerPatch(this.getSnapshot().content));
  }

  // ---- saving -------------------------------------------------------------------------------

  private enqueue(item: QueuedSave): void {
    this.saves.enqueue(item);
    this.set({ saving: this.getSnapshot().saving + 1 });
  }

  /** Resolves once every queued save is answered. */
  flush(): Promise<void> {
    return this.saves.flush();
  }

  /**
   * The failed save and everything queued after it are undone: the content goes back to what
   * the server holds (the failed change's starting point) and the history to what it was then.
   */
  private rollback(failed: QueuedSave, error: unknown): void {
    this.applyContent(this.saves.confirmed.content, { history: failed.historyBefore, saving: 0 });
    this.onSaveFailed?.(error);
  }

  /** Writes history and pending marks to storage now (a page about to close). */
  persist(): void {
    this.persistence.write();
  }

  // ---- search -------------------------------------------------------------------------------

  /** Runs the search now (the search box debounces typing by SEARCH_DEBOUNCE_MS). */
  setSearch(query: string, keepCurrent = false): void {
    this.set(searchPatch(this.getSnapshot(), query, keepCurrent));
  }

  stepSearch(direction: 1 | -1): SearchMatch | null {
    const step = searchStep(this.getSnapshot(), direction);
    if (!step) return null;
    this.set(step.patch);
    return step.match;
  }
}
