/**
 * The preview's playback of one moment and the detection of the source's size, as plain functions
 * over a media element's few fields (tested without a browser).
 */

export interface MomentSpan {
  startTime: number;
  endTime: number;
}

/** What a media element needs to be for these rules. */
export interface PlayableMedia {
  currentTime: number;
  paused: boolean;
  pause(): void;
  play(): Promise<void> | void;
}

/** Selecting a moment pauses the preview and seeks to its start. */
export function cueMoment(media: PlayableMedia, moment: MomentSpan): void {
  media.pause();
  media.currentTime = moment.startTime;
}

/** At the moment's end playback pauses and goes back to its start; answers whether it did. */
export function holdInMoment(media: PlayableMedia, moment: MomentSpan): boolean {
  if (media.currentTime < moment.endTime) return false;
  media.pause();
  media.currentTime = moment.startTime;
  return true;
}

/** Play from inside the moment (from its start when outside it), or pause. */
export function togglePlay(media: PlayableMedia, moment: MomentSpan): void {
  if (!media.paused) {
    media.pause();
    return;
  }
  if (media.currentTime < moment.startTime || media.currentTime >= moment.endTime) media.currentTime = moment.startTime;
  void Promise.resolve(media.play()).catch(() => undefined);
}

/** Source size detection: every 200 ms, up to 30 times. */
export const SIZE_RETRY_MS = 200;
export const SIZE_RETRIES = 30;

export interface SizeProbe {
  videoWidth: number;
  videoHeight: number;
}

/**
 * Reads the picture's intrinsic size from `media` now and then every 200 ms, 30 times at most,
 * and calls `found` once with it; after the last try, `found` gets `fallback` (the size the server
 * probed), if any. Answers the function that stops it.
 */
export function detectSourceSize(
  media: SizeProbe,
  fallback: { width: number; height: number } | null,
  found: (size: { width: number; height: number }) => void,
  timers: { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void } = {
    set: (fn, ms) => setTimeout(fn, ms),
    clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
): () => void {
  let tries = 0;
  let handle: unknown = null;
  let stopped = false;
  const attempt = () => {
    if (stopped) return;
    if (media.videoWidth > 0 && media.videoHeight > 0) {
      found({ width: media.videoWidth, height: media.videoHeight });
      return;
    }
    tries += 1;
    if (tries >= SIZE_RETRIES) {
      if (fallback && fallback.width > 0 && fallback.height > 0) found(fallback);
      return;
    }
    handle = timers.set(attempt, SIZE_RETRY_MS);
  };
  attempt();
  return () => {
    stopped = true;
    if (handle !== null) timers.clear(handle);
  };
}
