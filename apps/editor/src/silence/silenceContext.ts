import { useContext, useMemo } from 'react';
import { toast, useStoreValue } from '@wordcut/ui';
import { useJobs } from '../jobs/jobRunner';
import { useRefreshVideo } from '../jobs/refresh';
import { usePlaybackStore } from '../shared/playback';
import { storeContext } from '../shared/storeContext';
import { useWorkspaceStore } from '../shared/workspace';
import type { SilenceCommandContext } from './commands';
import type { SilenceState, SilenceStore } from './silenceState';

/** The page's silence store (one per video page) and its hooks. */
const silence = storeContext<SilenceStore>('SilenceContext', 'useSilenceStore');

export const SilenceContext = silence.Context;
export const useSilenceStore = silence.useStore;
/** A value derived from the silence state; re-renders only when it changes. */
export const useSilence = silence.useValue;

const NO_STORE = { get: () => null, subscribe: () => () => undefined };

/** Like useSilence, but null outside a video page (parts of the editor shown on their own). */
export function useOptionalSilence<V>(select: (state: SilenceState) => V): V | null {
  const store = useContext(SilenceContext);
  return useStoreValue<SilenceState | null, V | null>(
    store ? { get: store.getSnapshot, subscribe: store.subscribe } : NO_STORE,
    (state) => (state ? select(state) : null),
  );
}

/** What the silence commands need, from the page's stores. */
export function useSilenceCommands(): SilenceCommandContext {
  const store = useSilenceStore();
  const workspace = useWorkspaceStore();
  const playback = usePlaybackStore();
  const runner = useJobs();
  const refreshVideo = useRefreshVideo(store.videoId);
  return useMemo(
    () => ({ videoId: store.videoId, silence: store, workspace, playback, runner, refreshVideo, toast }),
    [store, workspace, playback, runner, refreshVideo],
  );
}
