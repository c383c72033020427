import { createStore } from '@wordcut/ui';
import { storeContext } from './storeContext';

/**
 * Playback state outside React, time updates throttled to 100 ms: the player writes here, and only the parts of the UI that depend on the time subscribe
 * (the playhead moves its own element; the transcript re-renders when the current word
 * changes), so nothing re-renders per frame.
 */

export const TIME_UPDATE_INTERVAL_MS = 100;

export interface PlaybackSnapshot {
  currentTime: number;
  duration: number;
  playing: boolean;
}

/** What seeking (and starting or pausing) needs of the media element. */
export interface Seekable {
  currentTime: number;
  play?: () => Promise<void> | void;
  pause?: () => void;
  readonly readyState?: number;
}

export interface PlaybackStore {
  getSnapshot(): PlaybackSnapshot;
  subscribe(listener: () => void): () => void;
  /** A time from the player; dropped when the last accepted one is under 100 ms old (unless forced). */
  reportTime(time: number, force?: boolean): void;
  setDuration(duration: number): void;
  setPlaying(playing: boolean): void;
  /** The player registers its media element; seek() moves it. */
  attach(media: Seekable | null): void;
  /** Moves the playhead (and the attached media) to `time`, clamped to 0..duration when known. */
  seek(time: number): void;
  /** Starts the attached media; rejects when there is none or the browser refuses. */
  play(): Promise<void>;
  pause(): void;
  /** The media is attached and has its metadata (duration, size). */
  isReady(): boolean;
}

export function createPlaybackStore(now: () => number = () => performance.now()): PlaybackStore {
  const state = createStore<PlaybackSnapshot>({ currentTime: 0, duration: 0, playing: false });
  let lastEmit = Number.NEGATIVE_INFINITY;
  let media: Seekable | null = null;

  const set = (patch: Partial<PlaybackSnapshot>) => {
    const current = state.get();
    const next = { ...current, ...patch };
    if (next.currentTime === current.currentTime && next.duration === current.duration && next.playing === current.playing) return;
    state.set(next);
  };

  return {
    getSnapshot: state.get,
    subscribe: state.subscribe,
    reportTime(time, force = false) {
      if (!Number.isFinite(time)) return;
      const t = now();
      if (!force && t - lastEmit < TIME_UPDATE_INTERVAL_MS) return;
      lastEmit = t;
      set({ currentTime: time });
    },
    setDuration(duration) {
      if (Number.isFinite(duration) && duration >= 0) set({ duration });
    },
    setPlaying(playing) {
      set({ playing });
    },
    attach(next) {
      media = next;
    },
    async play() {
      if (!media?.play) throw new Error('Video player not ready');
      await media.play();
    },
    pause() {
      media?.pause?.();
    },
    isReady() {
      return media !== null && (media.readyState === undefined || media.readyState >= 1) && state.get().duration > 0;
    },
    seek(time) {
      if (!Number.isFinite(time)) return;
      const { duration } = state.get();
      const clamped = Math.max(0, duration > 0 ? Math.min(duration, time) : time);
      if (media) media.currentTime = clamped;
      lastEmit = now();
      set({ currentTime: clamped });
    },
  };
}

const playback = storeContext<PlaybackStore>('PlaybackContext', 'usePlaybackStore');

export const PlaybackContext = playback.Context;
export const usePlaybackStore = playback.useStore;
/**
 * A value derived from the playback state; the component re-renders only when the selected
 * value changes (select must return a primitive or a stable value).
 */
export const usePlayback = playback.useValue;
