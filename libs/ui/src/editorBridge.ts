import type { MuteLevel } from '@wordcut/contracts';
import { createStore, useStoreValue } from './store';

/**
 * What the editor remote tells the publish remote about the open video: its pending mutes (the
 * export request carries them) and how many transcript history entries exist (the 'Revert to
 * Original' button shows while there is any). The two remotes are separate bundles;
 * `@wordcut/ui` is a Module Federation singleton, so this module-level store is the one place
 * both see. The editor writes, the publish remote reads.
 */

export type BridgeMuteLevel = MuteLevel;

export interface BridgeMute {
  startTime: number;
  endTime: number;
  level: BridgeMuteLevel;
}

export interface EditorPublishState {
  /** the WordCut video the editor has open, null when none */
  videoId: string | null;
  pendingMutes: BridgeMute[];
  historyEntries: number;
}

export const EMPTY_EDITOR_STATE: EditorPublishState = Object.freeze({ videoId: null, pendingMutes: Object.freeze([]) as unknown as BridgeMute[], historyEntries: 0 });

const bridge = createStore<EditorPublishState>(EMPTY_EDITOR_STATE);

function sameMutes(a: readonly BridgeMute[], b: readonly BridgeMute[]): boolean {
  return a === b || (a.length === b.length && a.every((m, i) => m.startTime === b[i]!.startTime && m.endTime === b[i]!.endTime && m.level === b[i]!.level));
}

/** A new edit version made outside the transcript (the header's revert, a replaced transcript), for the editor's history. */
export interface BridgeVersion {
  videoId: string;
  before: number;
  after: number;
  /** what made it (default: a revert), and its history text (default 'Revert to Original') */
  operation?: 'revert' | 'replace-transcript';
  description?: string;
}

type VersionListener = (version: BridgeVersion) => Promise<void>;
const versionListeners = new Set<VersionListener>();

/** How long an announcement waits for the editor to record a version. */
export const VERSION_ANNOUNCE_TIMEOUT_MS = 5000;

export const editorBridge = {
  get: bridge.get,
  /** The editor listens for versions made elsewhere; answers the unsubscribe. */
  onVersion(listener: VersionListener): () => void {
    versionListeners.add(listener);
    return () => versionListeners.delete(listener);
  },
  /**
   * Tells the editor of a version made elsewhere and waits (at most VERSION_ANNOUNCE_TIMEOUT_MS)
   * until it has recorded it as an undoable step; a listener's failure is its own.
   */
  async announceVersion(version: BridgeVersion): Promise<void> {
    const wait = [...versionListeners].map((listener) => listener(version).catch(() => undefined));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, VERSION_ANNOUNCE_TIMEOUT_MS)));
    await Promise.race([Promise.all(wait), timeout]);
    clearTimeout(timer);
  },
  /**
   * Merges a patch. Mutes are copied to plain {startTime, endTime, level} records (the editor's
   * pending marks carry more); an unchanged value notifies nobody, so readers re-render only on
   * real changes.
   */
  set(patch: Partial<EditorPublishState>): void {
    const state = bridge.get();
    const next: EditorPublishState = {
      videoId: patch.videoId !== undefined ? patch.videoId : state.videoId,
      pendingMutes: patch.pendingMutes ? patch.pendingMutes.map(({ startTime, endTime, level }) => ({ startTime, endTime, level })) : state.pendingMutes,
      historyEntries: patch.historyEntries !== undefined ? Math.max(0, Math.trunc(patch.historyEntries)) : state.historyEntries,
    };
    if (next.videoId === state.videoId && next.historyEntries === state.historyEntries && sameMutes(next.pendingMutes, state.pendingMutes)) return;
    if (sameMutes(next.pendingMutes, state.pendingMutes)) next.pendingMutes = state.pendingMutes;
    bridge.set(next);
  },
  /** Back to "no video open" (the editor's page unmounted). */
  reset(): void {
    bridge.set(EMPTY_EDITOR_STATE);
  },
  subscribe: bridge.subscribe,
};

export function useEditorBridge(): EditorPublishState {
  return useStoreValue(bridge, (state) => state);
}
