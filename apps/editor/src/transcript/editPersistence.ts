import { deserializeHistory, serializeHistory } from '@wordcut/editor-core';
import type { History, PendingCut, PendingMute } from '@wordcut/editor-core';
import type { TranscriptContent } from '@wordcut/transcript';

/** Where history and pending marks live between page loads (localStorage in the browser). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const STORAGE_PREFIX = 'wordcut_editor_';
const PERSIST_DEBOUNCE_MS = 400;

interface Persisted {
  v: 1;
  history: string;
  pendingCuts: PendingCut[];
  pendingMutes: PendingMute[];
}

/** What is kept of an editing session across reloads. */
export interface StoredEdits {
  history: History;
  pendingCuts: PendingCut[];
  pendingMutes: PendingMute[];
}

export interface EditPersistenceOptions {
  storage: KeyValueStorage | null | undefined;
  videoId: string;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
  /** false while a save is outstanding: an unconfirmed state must not become the anchor */
  canWrite: () => boolean;
  /** the edits to keep, and the content the server holds (the history is anchored there) */
  current: () => StoredEdits & { confirmed: TranscriptContent };
}

/**
 * The editing session's history and pending marks in storage, per video: written 400 ms after the
 * last change (at once after the last save is confirmed), and read back on load only when the
 * server still holds the very content the history was anchored at.
 */
export class EditPersistence {
  private timer: unknown = null;

  constructor(private readonly options: EditPersistenceOptions) {}

  private get key(): string {
    return `${STORAGE_PREFIX}${this.options.videoId}`;
  }

  /** The stored edits made on `content`, or null (none, unreadable, or made on other content: then dropped). */
  restore(content: TranscriptContent): StoredEdits | null {
    const storage = this.options.storage;
    if (!storage) return null;
    try {
      const raw = storage.getItem(this.key);
      if (!raw) return null;
      const data = JSON.parse(raw) as Persisted;
      if (data.v !== 1) return null;
      const history = deserializeHistory(data.history, content);
      if (!history) {
        storage.removeItem(this.key);
        return null;
      }
      return { history, pendingCuts: data.pendingCuts ?? [], pendingMutes: data.pendingMutes ?? [] };
    } catch {
      return null;
    }
  }

  /** Writes 400 ms after the last call. */
  schedule(): void {
    if (!this.options.storage) return;
    this.restart(PERSIST_DEBOUNCE_MS);
  }

  /** Writes in the next task (after the last queued save is confirmed, while the queue still counts as sending). */
  soon(): void {
    this.restart(0);
  }

  private restart(ms: number): void {
    if (this.timer) this.options.clearTimer(this.timer);
    this.timer = this.options.setTimer(() => {
      this.timer = null;
      this.write();
    }, ms);
  }

  /** Writes now, or (while a save is outstanding) reschedules; nothing to keep removes the entry. */
  write(): void {
    const storage = this.options.storage;
    if (!storage) return;
    if (!this.options.canWrite()) {
      this.schedule();
      return;
    }
    const { history, pendingCuts, pendingMutes, confirmed } = this.options.current();
    try {
      if (history.entries.length === 0 && pendingCuts.length === 0 && pendingMutes.length === 0) {
        storage.removeItem(this.key);
        return;
      }
      const data: Persisted = {
        v: 1,
        history: serializeHistory(history, confirmed),
        pendingCuts: [...pendingCuts],
        pendingMutes: [...pendingMutes],
      };
      storage.setItem(this.key, JSON.stringify(data));
    } catch {
      // storage full or blocked: the session still works, it just won't survive a reload
    }
  }

  /** A write still waiting for its timer happens now. */
  dispose(): void {
    if (!this.timer) return;
    this.options.clearTimer(this.timer);
    this.timer = null;
    this.write();
  }
}
