import type { WordDelta } from '@wordcut/contracts';
import type { History } from '@wordcut/editor-core';
import type { TranscriptContent } from '@wordcut/transcript';

/** What a save sends: PATCH /api/transcripts/{id} with word deltas, or the whole content. */
export type TranscriptSavePayload =
  | { wordDeltas: WordDelta[] }
  | { words: TranscriptContent['words']; paragraphs: TranscriptContent['paragraphs']; fillerWords: number[] };

export interface TranscriptSaver {
  /** Saves on top of `version` (the server refuses another); resolves with the transcript's new version. */
  save(transcriptId: string, version: number, payload: TranscriptSavePayload): Promise<number>;
}

/** One change waiting to be saved. */
export interface QueuedSave {
  /** the history as it was before this change: a failed save puts it back */
  historyBefore: History;
  /** the content once this change is saved */
  after: TranscriptContent;
  /** computed when sent, off the key press (undo/redo diff the states) */
  payload: () => TranscriptSavePayload;
}

export interface SaveQueueOptions {
  saver: TranscriptSaver;
  transcriptId: () => string;
  setTimer: (fn: () => void, ms: number) => unknown;
  /** a save was confirmed at `version`; `idle` when no other save waits */
  onSaved: (version: number, idle: boolean) => void;
  /** a save failed and every save queued after it was dropped; `confirmed` is what the server still holds */
  onFailed: (failed: QueuedSave, error: unknown) => void;
}

/** The full content as a save payload (a filler list or an undo that deltas cannot express). */
export function fullReplacement(content: TranscriptContent): TranscriptSavePayload {
  return { words: content.words, paragraphs: content.paragraphs, fillerWords: content.fillerWords };
}

/**
 * The transcript's saves: one request at a time, in edit order, each conditional on the version
 * the server confirmed last. A failed save drops every save queued after it (they were made on
 * top of it); the owner rolls back to what the server still holds.
 */
export class SaveQueue {
  private readonly queue: QueuedSave[] = [];
  private sending = false;
  /** the content and version the server holds (after the last confirmed save) */
  confirmed: { content: TranscriptContent; version: number };

  constructor(
    confirmed: { content: TranscriptContent; version: number },
    private readonly options: SaveQueueOptions,
  ) {
    this.confirmed = confirmed;
  }

  /** A save is queued or under way. */
  get busy(): boolean {
    return this.queue.length > 0 || this.sending;
  }

  enqueue(item: QueuedSave): void {
    this.queue.push(item);
    // start sending after this task: the key press paints first, the payload (a diff for undo) is built after
    this.options.setTimer(() => void this.send(), 0);
  }

  /** Resolves once every queued save is answered. */
  async flush(): Promise<void> {
    while (this.busy) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Saves `payload` once the queue is empty, outside it; resolves with the new version (the server
   * then holds `content`), rejects when the save fails (nothing changes then).
   */
  async saveNow(content: TranscriptContent, payload: TranscriptSavePayload): Promise<number> {
    await this.flush();
    const version = await this.options.saver.save(this.options.transcriptId(), this.confirmed.version, payload);
    this.confirmed = { content, version };
    return version;
  }

  private async send(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        const item = this.queue[0]!;
        try {
          const version = await this.options.saver.save(this.options.transcriptId(), this.confirmed.version, item.payload());
          this.queue.shift();
          this.confirmed = { content: item.after, version };
          this.options.onSaved(version, this.queue.length === 0);
        } catch (error) {
          this.queue.length = 0;
          this.options.onFailed(item, error);
        }
      }
    } finally {
      this.sending = false;
    }
  }
}
