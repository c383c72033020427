import { buildPlaybackRules, clampSeek, playbackStep, reorderPreviewStep } from '@wordcut/editor-core';
import type { PlaybackRules } from '@wordcut/editor-core';
import type { WorkspaceSnapshot, WorkspaceStore } from '../shared/workspace';

/** What the controller needs of the media element (an HTMLVideoElement in the page). */
export interface PreviewMedia {
  currentTime: number;
  volume: number;
  readonly paused: boolean;
  readonly duration: number;
  readonly playbackRate: number;
  pause(): void;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

export interface FrameScheduler {
  request(callback: (now: number) => void): number;
  cancel(handle: number): void;
}

const browserFrames: FrameScheduler = {
  request: (cb) => requestAnimationFrame(cb),
  cancel: (h) => cancelAnimationFrame(h),
};

/** Playback moves at most this far between two checks (a stalled tab must not make the lookahead huge). */
const MAX_LOOKAHEAD_SECONDS = 0.25;
/** The lookahead is the longest of this many recent frame intervals: one long frame among short ones is expected again. */
const RECENT_FRAMES = 30;

/**
 * Applies the preview modes to the media element, once per animation frame while
 * it plays (outside React): pending cuts are always skipped (merged when ≤ 0.1 s apart, jumping to
 * the end + 0.1 s), silences marked 'remove' are skipped in silence preview, muted ranges play at
 * 0 / 0.1 / 0.3 of the listener's volume in mute preview, the preview time range pauses at its end
 * and clamps seeks, and the reorder preview plays the segments in their new order.
 *
 * It jumps one frame early (the lookahead is the longest recent frame interval times the playback
 * rate, so a busy main thread's uneven frames are allowed for), so the media's time never enters a cut.
 */
export class PreviewController {
  private media: PreviewMedia | null = null;
  private rules: PlaybackRules;
  private frame = 0;
  private lastFrameAt: number | null = null;
  /** the latest frame intervals (s), newest last */
  private intervals: number[] = [];
  /** the listener's own volume; previews scale it */
  private userVolume = 1;
  /** the volume this controller wrote last, to tell its writes from the listener's */
  private written: number | null = null;
  private unsubscribe: () => void;

  constructor(
    private readonly workspace: WorkspaceStore,
    private readonly onReorderPreviewEnd: (reason: 'finished') => void = () => undefined,
    private readonly frames: FrameScheduler = browserFrames,
  ) {
    this.rules = this.buildRules(workspace.getSnapshot());
    let last = workspace.getSnapshot();
    this.unsubscribe = workspace.subscribe(() => {
      const next = workspace.getSnapshot();
      const rulesChanged =
        next.pendingCuts !== last.pendingCuts ||
        next.pendingMutes !== last.pendingMutes ||
        next.pendingSilences !== last.pendingSilences ||
        next.mutePreview !== last.mutePreview ||
        next.silencePreview !== last.silencePreview ||
        next.range !== last.range;
      last = next;
      if (rulesChanged) {
        this.rules = this.buildRules(next);
        // a paused player must honour the new rules too (a new range, mute preview switched off)
        this.check(0);
      }
    });
  }

  private buildRules(snapshot: WorkspaceSnapshot): PlaybackRules {
    const duration = this.media && Number.isFinite(this.media.duration) ? this.media.duration : 0;
    return buildPlaybackRules({
      cuts: snapshot.pendingCuts,
      mutes: snapshot.pendingMutes,
      silences: snapshot.pendingSilences,
      mutePreview: snapshot.mutePreview,
      silencePreview: snapshot.silencePreview,
      range: snapshot.range,
      duration,
    });
  }

  /** The rules in force (for tests and the timeline). */
  getRules(): PlaybackRules {
    return this.rules;
  }

  attach(media: PreviewMedia | null): void {
    if (this.media === media) return;
    this.detachMedia();
    this.media = media;
    if (!media) return;
    this.userVolume = media.volume;
    for (const [type, handler] of this.handlers) media.addEventListener(type, handler);
    this.rules = this.buildRules(this.workspace.getSnapshot());
    if (!media.paused) this.startLoop();
  }

  dispose(): void {
    this.detachMedia();
    this.unsubscribe();
  }

  private detachMedia(): void {
    this.stopLoop();
    if (!this.media) return;
    for (const [type, handler] of this.handlers) this.media.removeEventListener(type, handler);
    this.media = null;
  }

  private readonly handlers: Array<[string, () => void]> = [
    ['play', () => this.startLoop()],
    ['playing', () => this.startLoop()],
    ['pause', () => this.stopLoop()],
    ['ended', () => this.stopLoop()],
    ['seeking', () => this.onSeeking()],
    ['seeked', () => this.check(0)],
    // animation frames stop in a background tab; time updates (4 Hz there) still skip cuts, late rather than never
    ['timeupdate', () => this.check(0)],
    ['volumechange', () => this.onVolumeChange()],
    ['durationchange', () => (this.rules = this.buildRules(this.workspace.getSnapshot()))],
    ['loadedmetadata', () => (this.rules = this.buildRules(this.workspace.getSnapshot()))],
  ];

  private startLoop(): void {
    if (this.frame) return;
    this.lastFrameAt = null;
    this.intervals = [];
    // play pressed at the end of the preview range plays the range again
    const range = this.rules.range;
    if (range && this.media && this.media.currentTime >= range.end - 0.05) this.media.currentTime = range.start;
    this.check(0);
    const tick = (now: number) => {
      if (this.lastFrameAt !== null) {
        this.intervals.push(Math.max(0, (now - this.lastFrameAt) / 1000));
        if (this.intervals.length > RECENT_FRAMES) this.intervals.shift();
      }
      this.lastFrameAt = now;
      const rate = this.media?.playbackRate ?? 1;
      const longest = this.intervals.length ? Math.max(...this.intervals) : 0;
      this.check(Math.min(MAX_LOOKAHEAD_SECONDS, longest * Math.abs(rate)));
      this.frame = this.media && !this.media.paused ? this.frames.request(tick) : 0;
    };
    this.frame = this.frames.request(tick);
  }

  private stopLoop(): void {
    if (this.frame) this.frames.cancel(this.frame);
    this.frame = 0;
  }

  /** Seeks made by the listener (controls, timeline, transcript) are clamped to the preview range and moved out of cuts. */
  private onSeeking(): void {
    const media = this.media;
    if (!media) return;
    if (this.workspace.getSnapshot().reorderPreview) return;
    const target = clampSeek(this.rules, media.currentTime);
    if (Math.abs(target - media.currentTime) > 0.001) media.currentTime = target;
    // the volume belongs to the new position at once, not from the next frame
    const step = playbackStep(this.rules, media.currentTime, 0);
    this.setVolume(step.volume);
  }

  private onVolumeChange(): void {
    const media = this.media;
    if (!media) return;
    if (this.written !== null && Math.abs(media.volume - this.written) < 1e-6) return;
    // the listener moved the volume: that is the new base the previews scale
    this.userVolume = media.volume;
    this.written = null;
  }

  private setVolume(factor: number): void {
    const media = this.media;
    if (!media) return;
    const volume = Math.min(1, Math.max(0, this.userVolume * factor));
    if (Math.abs(media.volume - volume) < 1e-6) return;
    this.written = volume;
    media.volume = volume;
  }

  /** One check: `lookahead` is how far playback moves before the next one. */
  check(lookahead: number): void {
    const media = this.media;
    if (!media) return;
    const snapshot = this.workspace.getSnapshot();
    const preview = snapshot.reorderPreview;
    if (preview && snapshot.reorder) {
      this.setVolume(1);
      if (media.paused) return;
      const step = reorderPreviewStep(snapshot.reorder.segments, preview.index, media.currentTime + lookahead);
      if (step.seekTo !== null) media.currentTime = step.seekTo;
      if (step.pause) media.pause();
      if (step.done) {
        this.workspace.update({ reorderPreview: null });
        this.onReorderPreviewEnd('finished');
      } else if (step.index !== preview.index) {
        this.workspace.update({ reorderPreview: { ...preview, index: step.index } });
      }
      return;
    }
    const step = playbackStep(this.rules, media.currentTime, media.paused ? 0 : lookahead);
    if (step.seekTo !== null && Math.abs(step.seekTo - media.currentTime) > 0.001) media.currentTime = step.seekTo;
    if (step.pause && !media.paused) media.pause();
    this.setVolume(step.volume);
  }
}
