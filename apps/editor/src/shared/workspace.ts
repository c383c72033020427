import { createStore } from '@wordcut/ui';
import { segmentsChanged } from '@wordcut/editor-core';
import type { AspectRatio, PendingCut, PendingMute, ReorderSegment, TimeRange } from '@wordcut/editor-core';
import type { Reframe } from '@wordcut/edit-list';
import type { Paragraph, Word } from '@wordcut/contracts';
import { storeContext } from './storeContext';
import type { IncomingVersion } from './versions';

/**
 * What the parts of one video's editor tell each other, outside React's render path: the
 * transcript editor publishes its pending cuts and mutes, the selected words' time range and the
 * keep preview; reorder mode publishes its segments; the player's preview controller, the
 * timeline, the Quick Export card and the reorder preview card read them. Components subscribe
 * with selectors (useWorkspace), so a change re-renders only the parts that use it.
 */

/** A silence to preview (start, end, and whether to 'remove' it); filled by silence detection. */
export interface PendingSilence {
  startTime: number;
  endTime: number;
  recommendation: string;
}

export interface ReorderState {
  /** segments in the original order (the paragraphs as they are) */
  original: ReorderSegment[];
  /** segments in the order the user arranged */
  segments: ReorderSegment[];
  /** the transcript the segments were made from (payload form, paragraph texts) */
  words: readonly Word[];
  paragraphs: readonly Paragraph[];
  /** its version, sent so the server refuses a reorder of an outdated transcript */
  transcriptVersion: number;
}

export interface ReorderPreviewState {
  /** the segment now playing */
  index: number;
  /** where the player was when the preview started; restored on exit */
  restoreTime: number;
}

export interface WorkspaceSnapshot {
  pendingCuts: readonly PendingCut[];
  pendingMutes: readonly PendingMute[];
  pendingSilences: readonly PendingSilence[];
  /** mute preview: muted ranges play at their level's volume (× 0, 0.1 or 0.3) */
  mutePreview: boolean;
  /** silence preview: silences marked 'remove' are skipped */
  silencePreview: boolean;
  /** preview time-range mode (keep preview): pause at the end, seeking clamped */
  range: TimeRange | null;
  /** the time span of the selected words, or null without a selection */
  selectionRange: TimeRange | null;
  /** reorder mode, or null outside it */
  reorder: ReorderState | null;
  /** the reorder preview while it plays */
  reorderPreview: ReorderPreviewState | null;
  /** the aspect ratio the reframe overlay shows on the player, or null for none */
  reframe: AspectRatio | null;
  /** the zoom and pan the overlay's frame shows (the clip dialog's), or null for centred at zoom 1 */
  reframeZoom: Reframe | null;
  /** the Create Video Clip dialog, open for these words, or null when closed */
  clipDialog: (TimeRange & { text: string }) | null;
  /** a version a finished job made, for the editor to record when its transcript arrives */
  incomingVersion: IncomingVersion | null;
  /** an undo or redo across versions in progress */
  versionMove: 'undo' | 'redo' | null;
}

const INITIAL: WorkspaceSnapshot = {
  pendingCuts: [],
  pendingMutes: [],
  pendingSilences: [],
  mutePreview: false,
  silencePreview: false,
  range: null,
  selectionRange: null,
  reorder: null,
  reorderPreview: null,
  reframe: null,
  reframeZoom: null,
  clipDialog: null,
  incomingVersion: null,
  versionMove: null,
};

export class WorkspaceStore {
  private readonly state = createStore<WorkspaceSnapshot>(INITIAL);

  getSnapshot = (): WorkspaceSnapshot => this.state.get();

  subscribe = (listener: () => void): (() => void) => this.state.subscribe(listener);

  /** Applies a patch; a preview turns off once nothing is left for it to preview. */
  update(patch: Partial<WorkspaceSnapshot>): void {
    const current = this.state.get();
    const next = { ...current, ...patch };
    // mute preview needs mutes; silence preview needs a silence marked 'remove'
    if (next.mutePreview && next.pendingMutes.length === 0) next.mutePreview = false;
    if (next.silencePreview && !next.pendingSilences.some((s) => s.recommendation === 'remove')) next.silencePreview = false;
    // the reorder preview ends with reorder mode, or when no reordered paragraphs remain
    if (!next.reorder || (next.reorderPreview && !segmentsChanged(next.reorder.original, next.reorder.segments))) next.reorderPreview = null;
    const changed = (Object.keys(next) as Array<keyof WorkspaceSnapshot>).some((k) => next[k] !== current[k]);
    if (changed) this.state.set(next);
  }
}

const workspace = storeContext<WorkspaceStore>('WorkspaceContext', 'useWorkspaceStore');

export const WorkspaceContext = workspace.Context;
export const useWorkspaceStore = workspace.useStore;
/** A value derived from the workspace; re-renders only when it changes (return primitives or stable values). */
export const useWorkspace = workspace.useValue;
