/**
 * Over 400 lines: one store wires every kind of change (text, marks, versions, search) through the
 * same snapshot; each change is computed in its own file of plain functions.
 *
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
import { versionArrived, versionStepped } from './versionChanges';
import type { IncomingVersion } from '../shared/versions';
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

/** Something the person should be told (marks that went with their words). */
export type NoticeListener = (notice: { title: string; description: string }) => void;

/** The server call a version step of the history needs: show version `target`, the page showing `expected`. */
export interface VersionMove {
  direction: 'undo' | 'redo';
  target: number;
  expected: number;
}

export interface EditorStoreOptions {
  videoId: string;
  transcript: ServerTranscript;
  saver: TranscriptSaver;
  storage?: KeyValueStorage | null;
  onSaveFailed?: SaveFailureListener;
  onNotice?: NoticeListener;
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
  onNotice: NoticeListener | undefined;

  constructor(options: EditorStoreOptions) {
    this.onNotice = options.onNotice;
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

  /** Saves are on their way (a server transcript is not taken until they are answered). */
  get saving(): boolean {
    return this.saves.busy;
  }

  dispose(): void {
    if (this.fillerTimer) this.clearTimer(this.fillerTimer);
    this.persistence.dispose();
  }

  // ---- server state -------------------------------------------------------------------------

  /**
   * A transcript from the server (query refetch). Ignored while saves are in flight or when it
   * is the version we already hold; otherwise it replaces the content. With `step` (a new edit
   * version a job or a revert made) the change is one undoable entry and the pending marks follow
   * their words into it; without one (another tab edited it) the history survives only if it was
   * made on this very content. Answers whether `step` was taken.
   */
  receive(transcript: ServerTranscript, step: IncomingVersion | null = null): boolean {
    if (this.saves.busy) return false;
    const previous = this.getSnapshot();
    if (transcript.id === previous.transcriptId && transcript.version === this.saves.confirmed.version) return false;
    const content = contentOf(transcript);
    this.saves.confirmed = { content, version: transcript.version };
    const arrival = step && transcript.id === previous.transcriptId ? versionArrived(previous, transcript, content, step) : null;
    const sameWords = previous.transcriptId === transcript.id && contentFingerprint(content) === contentFingerprint(previous.content);
    if (arrival) {
      this.state.set(arrival.snapshot);
      this.tellDropped(arrival.droppedMutes, arrival.droppedCuts);
    } else if (sameWords) {
      // the words are as they were: history and marks still apply
      this.set({ version: transcript.version, content });
    } else {
      // the words changed elsewhere (another tab): what was made on the old ones no longer applies
      this.state.set(replacedTranscript(previous, transcript, content));
    }
    if (this.getSnapshot().search.query) this.setSearch(this.getSnapshot().search.query);
    this.persist();
    return arrival !== null;
  }

  private tellDropped(mutes: number, cuts: number): void {
    if (mutes === 0 && cuts === 0) return;
    const parts = [mutes > 0 ? `${mutes} pending mute${mutes === 1 ? '' : 's'}` : '', cuts > 0 ? `${cuts} pending cut${cuts === 1 ? '' : 's'}` : ''].filter(Boolean);
    this.onNotice?.({ title: 'Marks removed with their words', description: `${parts.join(' and ')} covered only words that are no longer in the video. Undo brings them back.` });
  }

  /** The server call the next undo (redo) needs when it steps over a version; null for a local step. */
  versionMove(direction: 'undo' | 'redo'): VersionMove | null {
    const step = direction === 'undo' ? undoStep(this.getSnapshot().history) : redoStep(this.getSnapshot().history);
    const version = step?.entry.version;
    if (!version) return null;
    return direction === 'undo' ? { direction, target: version.before, expected: version.after } : { direction, target: version.after, expected: version.before };
  }

  /** The server now shows the version a step went to: its transcript, and the marks of that side. */
  completeVersionMove(direction: 'undo' | 'redo', transcript: ServerTranscript): void {
    const step = direction === 'undo' ? undoStep(this.getSnapshot().history) : redoStep(this.getSnapshot().history);
    if (!step?.entry.version) return;
    const content = contentOf(transcript);
    this.saves.confirmed = { content, version: transcript.version };
    this.state.set(versionStepped(this.getSnapshot(), transcript, content, step.entry, direction, step.history));
    if (this.getSnapshot().search.query) this.setSearch(this.getSnapshot().search.query);
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

  /** Undo the last entry: text edits are saved back, marks entries restore the marks they replaced (a version entry needs the server: versionMove). */
  undo(): boolean {
    const step = undoStep(this.getSnapshot().history);
    if (!step || step.entry.version) return false;
    const { marks } = step.entry;
    if (marks) this.applyMarks(marks.before, { history: step.history });
    else this.move(step.entry.afterState, step.entry.beforeState, step.history);
    return true;
  }

  redo(): boolean {
    const step = redoStep(this.getSnapshot().history);
    if (!step || step.entry.version) return false;
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
   * Clear history: back to the content the current version began with (the first entry after the
   * last version entry), saved as a full replacement. Resolves false when there is nothing to clear; rejects (history kept)
   * when the save fails.
   */
  async revertAll(): Promise<boolean> {
    const { history } = this.getSnapshot();
    // the text goes back to how the current version began; the versions before it stay undoable
    let lastVersion = -1;
    for (let k = 0; k < history.index; k++) if (history.entries[k]!.version) lastVersion = k;
    const first = history.entries[lastVersion + 1];
    if (!first) return false;
    const original = first.beforeState;
    const kept = history.entries.slice(0, lastVersion + 1);
    const version = await this.saves.saveNow(original, fullReplacement(original));
    this.applyContent(original, { history: kept.length === 0 ? EMPTY_HISTORY : { entries: kept, index: kept.length }, version });
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
