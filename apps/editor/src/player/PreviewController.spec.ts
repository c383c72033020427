import type { PendingCut, PendingMute, ReorderSegment } from '@wordcut/editor-core';
import type { MuteLevel } from '@wordcut/edit-list';
import { WorkspaceStore } from '../shared/workspace';
import type { ReorderState } from '../shared/workspace';
import { PreviewController } from './PreviewController';
import type { FrameScheduler, PreviewMedia } from './PreviewController';

/**
 * The preview controller (cut skipping, mute and silence previews, the preview range, the reorder
 * preview) against a fake media element and hand-driven animation frames: frames come every 16 ms
 * and the media's time moves 0.016 s × playbackRate between two frames, as a 60 Hz browser would.
 * Over 400 lines: one scenario per preview rule, all driving the same fake media and frames.
 */

const FRAME_MS = 16;

/** A media element: plain fields, listeners recorded so the test can dispatch events. */
class FakeMedia implements PreviewMedia {
  currentTime = 0;
  paused = true;
  duration = 30;
  playbackRate = 1;
  private _volume = 1;
  readonly listeners = new Map<string, Set<() => void>>();

  get volume(): number {
    return this._volume;
  }

  /** Like a browser, a volume change fires 'volumechange' (synchronously here). */
  set volume(v: number) {
    if (v === this._volume) return;
    this._volume = v;
    this.dispatch('volumechange');
  }

  play(): void {
    if (!this.paused) return;
    this.paused = false;
    this.dispatch('play');
  }

  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.dispatch('pause');
  }

  /** A seek made by the listener (controls, timeline): the time changes, then 'seeking' fires. */
  userSeek(time: number): void {
    this.currentTime = time;
    this.dispatch('seeking');
  }

  addEventListener(type: string, listener: () => void): void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener);
  }

  removeEventListener(type: string, listener: () => void): void {
    this.listeners.get(type)?.delete(listener);
  }

  dispatch(type: string): void {
    for (const listener of [...(this.listeners.get(type) ?? [])]) listener();
  }

  listenerCount(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }
}

/** Animation frames run only when the test says so. Handles start at 1 (0 means "no frame"). */
class ManualFrames implements FrameScheduler {
  private next = 1;
  private readonly queue = new Map<number, (now: number) => void>();
  now = 0;

  request(callback: (now: number) => void): number {
    const handle = this.next++;
    this.queue.set(handle, callback);
    return handle;
  }

  cancel(handle: number): void {
    this.queue.delete(handle);
  }

  get pending(): number {
    return this.queue.size;
  }

  /** Runs the frames requested so far at `now`. */
  run(now: number): void {
    this.now = now;
    const due = [...this.queue.entries()];
    this.queue.clear();
    for (const [, cb] of due) cb(now);
  }
}

interface Harness {
  media: FakeMedia;
  frames: ManualFrames;
  workspace: WorkspaceStore;
  controller: PreviewController;
  ended: jest.Mock<void, ['finished']>;
  /** Plays `count` frames: the media advances one frame's worth, then the frame runs. Returns the times each frame saw. */
  playFrames: (count: number) => number[];
}

function setup(init: { time?: number; volume?: number; duration?: number; rate?: number } = {}): Harness {
  const media = new FakeMedia();
  media.currentTime = init.time ?? 0;
  media.volume = init.volume ?? 1;
  media.duration = init.duration ?? 30;
  media.playbackRate = init.rate ?? 1;
  const frames = new ManualFrames();
  const workspace = new WorkspaceStore();
  const ended = jest.fn<void, ['finished']>();
  const controller = new PreviewController(workspace, ended, frames);
  controller.attach(media);
  const playFrames = (count: number): number[] => {
    const seen: number[] = [];
    for (let k = 0; k < count && frames.pending > 0; k++) {
      if (!media.paused) media.currentTime = Math.round((media.currentTime + (FRAME_MS / 1000) * media.playbackRate) * 1e6) / 1e6;
      seen.push(media.currentTime);
      frames.run(frames.now + FRAME_MS);
    }
    return seen;
  };
  return { media, frames, workspace, controller, ended, playFrames };
}

let cutId = 0;
function cut(startTime: number, endTime: number): PendingCut {
  cutId += 1;
  return { id: `cut-${cutId}`, wordIndices: [cutId], startTime, endTime, text: `w${cutId}` };
}

function mute(startTime: number, endTime: number, level: MuteLevel): PendingMute {
  return { ...cut(startTime, endTime), level };
}

const inside = (t: number, r: { start: number; end: number }) => t >= r.start && t < r.end;

describe('pending cuts (always skipped)', () => {
  it('jumps to the cut end + 0.1 s one frame before the cut, so the time never lies inside it', () => {
    const h = setup({ time: 0.5 });
    h.workspace.update({ pendingCuts: [cut(1.0, 2.0)] });
    h.media.play();
    const seen = h.playFrames(120);
    expect(seen.some((t) => t >= 2.1)).toBe(true); // the cut was passed
    expect(seen.filter((t) => inside(t, { start: 1.0, end: 2.0 }))).toEqual([]);
    // it played right up to the cut (within one frame) before jumping to exactly end + 0.1
    const before = seen.filter((t) => t < 1.0);
    expect(before[before.length - 1]).toBeGreaterThan(1.0 - 2 * 0.016);
    expect(seen.filter((t) => t > 2.0)[0]).toBeCloseTo(2.1 + 0.016, 6);
  });

  it.each(Array.from({ length: 12 }, (_, j) => 1 + j * 0.013))('allows for uneven frames: after a long frame among short ones, the time still never enters a cut at %f', (start) => {
    const h = setup({ time: 0.5 });
    h.workspace.update({ pendingCuts: [cut(start, start + 1)] });
    h.media.play();
    // a busy main thread: every fifth frame comes 90 ms after the one before
    const seen: number[] = [];
    for (let k = 0; k < 120 && h.frames.pending > 0; k++) {
      const ms = k % 5 === 4 ? 90 : FRAME_MS;
      h.media.currentTime = Math.round((h.media.currentTime + ms / 1000) * 1e6) / 1e6;
      seen.push(h.media.currentTime);
      h.frames.run(h.frames.now + ms);
    }
    expect(seen.some((t) => t >= start + 1.1)).toBe(true);
    expect(seen.filter((t) => inside(t, { start, end: start + 1 }))).toEqual([]);
  });

  it('scales the lookahead with the playback rate', () => {
    const h = setup({ time: 0.5, rate: 2 });
    h.workspace.update({ pendingCuts: [cut(1.0, 1.5)] });
    h.media.play();
    const seen = h.playFrames(60);
    expect(seen.some((t) => t > 1.6)).toBe(true);
    expect(seen.filter((t) => inside(t, { start: 1.0, end: 1.5 }))).toEqual([]);
  });

  it('skips several cuts in one play, none of them ever entered', () => {
    const h = setup({ time: 0 });
    const cuts = [cut(0.7, 0.95), cut(3.333, 4.1), cut(6.05, 6.5)];
    h.workspace.update({ pendingCuts: cuts });
    h.media.play();
    const seen = h.playFrames(500);
    expect(seen[seen.length - 1]).toBeGreaterThan(6.6);
    for (const c of cuts) expect(seen.filter((t) => inside(t, { start: c.startTime, end: c.endTime }))).toEqual([]);
  });

  it('merges cuts at most 0.1 s apart and jumps to the merged end + 0.1 s', () => {
    const h = setup({ time: 0.5 });
    // gaps of 0.05 s and exactly 0.1 s (1.4 - 1.3 is 0.09999999999999987 in floats)
    h.workspace.update({ pendingCuts: [cut(1.0, 1.15), cut(1.2, 1.3), cut(1.4, 2.0)] });
    expect(h.controller.getRules().skips).toEqual([{ start: 1.0, end: 2.0 }]);
    const seeks: number[] = [];
    h.media.play();
    let last = h.media.currentTime;
    for (let k = 0; k < 100; k++) {
      h.playFrames(1);
      if (Math.abs(h.media.currentTime - last) > 0.02) seeks.push(h.media.currentTime);
      last = h.media.currentTime;
    }
    expect(seeks).toEqual([2.1]); // one jump, over the whole chain
  });

  it('chains over cuts that the landing point falls into, landing at the merged end + 0.1 s', () => {
    const h = setup({ time: 0.5 });
    h.workspace.update({ pendingCuts: [cut(1.0, 1.5), cut(1.6, 2.2), cut(2.25, 3.0)] });
    expect(h.controller.getRules().skips).toEqual([{ start: 1.0, end: 3.0 }]);
    h.media.play();
    const seen = h.playFrames(80);
    expect(seen.filter((t) => t >= 1.0 && t < 3.1)).toEqual([]);
    expect(seen.find((t) => t > 3)).toBeCloseTo(3.116, 6);
  });

  it('does not merge cuts more than 0.1 s apart: the gap between them plays', () => {
    const h = setup({ time: 0.5 });
    h.workspace.update({ pendingCuts: [cut(1.0, 1.5), cut(1.9, 2.5)] });
    expect(h.controller.getRules().skips).toEqual([
      { start: 1.0, end: 1.5 },
      { start: 1.9, end: 2.5 },
    ]);
    h.media.play();
    const seen = h.playFrames(150);
    expect(seen.some((t) => t > 1.6 && t < 1.9)).toBe(true); // the gap is heard
    expect(seen.filter((t) => inside(t, { start: 1.0, end: 1.5 }) || inside(t, { start: 1.9, end: 2.5 }))).toEqual([]);
    expect(seen.some((t) => t > 2.6)).toBe(true);
  });

  it('a cut running to the end of the video pauses playback at the duration', () => {
    const h = setup({ time: 9.5, duration: 10 });
    h.workspace.update({ pendingCuts: [cut(9.8, 10)] });
    h.media.play();
    const seen = h.playFrames(60);
    expect(h.media.paused).toBe(true);
    expect(h.media.currentTime).toBe(10);
    expect(seen.filter((t) => inside(t, { start: 9.8, end: 10 }))).toEqual([]);
    expect(h.frames.pending).toBe(0); // the loop stopped
  });

  it('a seek into a cut while paused moves past it (seeking and seeked)', () => {
    const h = setup({ time: 0 });
    h.workspace.update({ pendingCuts: [cut(4, 5)] });
    h.media.userSeek(4.5);
    expect(h.media.currentTime).toBe(5.1);
    expect(h.media.paused).toBe(true);
    // a time set without 'seeking' is corrected by 'seeked'
    h.media.currentTime = 4.2;
    h.media.dispatch('seeked');
    expect(h.media.currentTime).toBe(5.1);
    // a seek outside any cut is left alone
    h.media.userSeek(3.25);
    expect(h.media.currentTime).toBe(3.25);
  });

  it('new cuts apply at once to a paused player sitting inside them', () => {
    const h = setup({ time: 2.5 });
    h.workspace.update({ pendingCuts: [cut(2, 3)] });
    expect(h.media.currentTime).toBe(3.1);
  });

  it('runs a frame loop only while playing, and detaches its listeners', () => {
    const h = setup({ time: 0 });
    expect(h.frames.pending).toBe(0);
    h.media.play();
    expect(h.frames.pending).toBe(1);
    h.playFrames(3);
    expect(h.frames.pending).toBe(1);
    h.media.pause();
    expect(h.frames.pending).toBe(0);
    h.media.play();
    h.media.dispatch('playing'); // a second start signal does not start a second loop
    expect(h.frames.pending).toBe(1);
    expect(h.media.listenerCount()).toBeGreaterThan(0);
    h.controller.dispose();
    expect(h.media.listenerCount()).toBe(0);
    expect(h.frames.pending).toBe(0);
    // disposed: workspace changes no longer reach the media
    h.media.currentTime = 7.5;
    h.workspace.update({ pendingCuts: [cut(7, 8)] });
    expect(h.media.currentTime).toBe(7.5);
  });

  it('attaching to a media element that already plays starts the loop; attach(null) stops it', () => {
    const media = new FakeMedia();
    media.paused = false;
    const frames = new ManualFrames();
    const controller = new PreviewController(new WorkspaceStore(), undefined, frames);
    controller.attach(media);
    expect(frames.pending).toBe(1);
    controller.attach(null);
    expect(frames.pending).toBe(0);
    expect(media.listenerCount()).toBe(0);
  });
});

describe('silence preview', () => {
  it("skips silences marked 'remove' only while silence preview is on", () => {
    const h = setup({ time: 0.5 });
    h.workspace.update({
      pendingSilences: [
        { startTime: 1, endTime: 2, recommendation: 'remove' },
        { startTime: 3, endTime: 4, recommendation: 'keep' },
      ],
    });
    expect(h.controller.getRules().skips).toEqual([]);
    h.workspace.update({ silencePreview: true });
    expect(h.controller.getRules().skips).toEqual([{ start: 1, end: 2 }]);
    h.media.play();
    const seen = h.playFrames(250);
    expect(seen.filter((t) => inside(t, { start: 1, end: 2 }))).toEqual([]);
    expect(seen.some((t) => inside(t, { start: 3, end: 4 }))).toBe(true);
  });
});

describe('mute preview', () => {
  const muted = (h: Harness, level: MuteLevel = 'whisper') => {
    h.workspace.update({ pendingMutes: [mute(1, 2, level)] });
    h.workspace.update({ mutePreview: true });
  };

  it("scales the listener's volume inside muted ranges (0.8 → whisper 0.08) and restores it after", () => {
    const h = setup({ time: 0.9, volume: 0.8 });
    muted(h);
    h.media.play();
    h.playFrames(3); // 0.916 .. 0.948: before the mute
    expect(h.media.volume).toBe(0.8);
    h.playFrames(10); // now inside
    expect(h.media.currentTime).toBeGreaterThan(1);
    expect(h.media.volume).toBeCloseTo(0.08, 10);
    h.media.currentTime = 1.99;
    h.playFrames(2);
    expect(h.media.currentTime).toBeGreaterThan(2);
    expect(h.media.volume).toBe(0.8);
  });

  it.each<[MuteLevel, number]>([
    ['silence', 0],
    ['whisper', 0.05],
    ['background', 0.15],
  ])('plays %s at its level of the volume', (level, expected) => {
    const h = setup({ time: 1.5, volume: 0.5 });
    muted(h, level);
    expect(h.media.volume).toBeCloseTo(expected, 10); // applied on the paused player at once
  });

  it('a volume the listener sets mid-mute becomes the new base', () => {
    const h = setup({ time: 1.2, volume: 0.8 });
    muted(h);
    h.media.play();
    h.playFrames(2);
    expect(h.media.volume).toBeCloseTo(0.08, 10);
    h.media.volume = 0.5; // the listener drags the volume slider ('volumechange' fires)
    h.playFrames(2);
    expect(h.media.volume).toBeCloseTo(0.05, 10);
    h.media.currentTime = 2.5;
    h.playFrames(1);
    expect(h.media.volume).toBe(0.5);
  });

  it("the controller's own volume writes are not taken for the listener's", () => {
    const h = setup({ time: 0.98, volume: 0.6 });
    muted(h);
    h.media.play();
    h.playFrames(5); // enters the mute: the controller writes 0.06 and sees its own 'volumechange'
    expect(h.media.volume).toBeCloseTo(0.06, 10);
    h.playFrames(5);
    expect(h.media.volume).toBeCloseTo(0.06, 10); // not 0.006: the base stayed 0.6
    h.media.currentTime = 3;
    h.playFrames(1);
    expect(h.media.volume).toBe(0.6);
  });

  it('turning mute preview off gives the listener their volume back, even when paused', () => {
    const h = setup({ time: 1.5, volume: 0.8 });
    muted(h);
    expect(h.media.volume).toBeCloseTo(0.08, 10);
    h.workspace.update({ mutePreview: false });
    expect(h.media.volume).toBe(0.8);
  });

  it('mute preview turns off (and the volume returns) when the mutes are cleared', () => {
    const h = setup({ time: 1.5, volume: 0.7 });
    muted(h, 'silence');
    expect(h.media.volume).toBe(0);
    h.workspace.update({ pendingMutes: [] });
    expect(h.workspace.getSnapshot().mutePreview).toBe(false);
    expect(h.media.volume).toBe(0.7);
  });

  it('without mute preview, muted ranges play at full volume', () => {
    const h = setup({ time: 1.5, volume: 0.8 });
    h.workspace.update({ pendingMutes: [mute(1, 2, 'silence')] });
    h.media.play();
    h.playFrames(5);
    expect(h.media.volume).toBe(0.8);
  });
});

describe('preview time-range mode', () => {
  const RANGE = { start: 5, end: 6 };

  it('pauses at the range end without playing past it', () => {
    const h = setup({ time: 5 });
    h.workspace.update({ range: RANGE });
    h.media.play();
    const seen = h.playFrames(200);
    expect(h.media.paused).toBe(true);
    expect(h.media.currentTime).toBe(6);
    expect(seen.every((t) => t >= 5 && t <= 6)).toBe(true);
    expect(seen.length).toBeLessThan(70); // stopped right at the end (about 62 frames for 1 s)
    expect(h.frames.pending).toBe(0);
  });

  it('clamps seeks to the range', () => {
    const h = setup({ time: 5.5 });
    h.workspace.update({ range: RANGE });
    h.media.userSeek(2);
    expect(h.media.currentTime).toBe(5);
    h.media.userSeek(12);
    expect(h.media.currentTime).toBe(6);
    h.media.userSeek(5.25);
    expect(h.media.currentTime).toBe(5.25);
  });

  it('a new range moves a paused player outside it to its start', () => {
    const h = setup({ time: 1 });
    h.workspace.update({ range: RANGE });
    expect(h.media.currentTime).toBe(5);
  });

  it('play at the range end restarts at the range start', () => {
    const h = setup({ time: 5.5 });
    h.workspace.update({ range: RANGE });
    h.media.play();
    h.playFrames(100);
    expect(h.media.paused).toBe(true);
    expect(h.media.currentTime).toBe(6);
    h.media.play();
    expect(h.media.currentTime).toBe(5);
    expect(h.media.paused).toBe(false);
    const seen = h.playFrames(5);
    expect(seen[seen.length - 1]).toBeCloseTo(5.08, 6);
  });

  it('pending cuts inside the range are still skipped', () => {
    const h = setup({ time: 5 });
    h.workspace.update({ range: { start: 5, end: 7 }, pendingCuts: [cut(5.5, 6)] });
    h.media.play();
    const seen = h.playFrames(200);
    expect(seen.filter((t) => inside(t, { start: 5.5, end: 6 }))).toEqual([]);
    expect(h.media.currentTime).toBe(7);
    expect(h.media.paused).toBe(true);
  });

  it('leaving range mode lets playback run on', () => {
    const h = setup({ time: 5.9 });
    h.workspace.update({ range: RANGE });
    h.workspace.update({ range: null });
    h.media.play();
    const seen = h.playFrames(20);
    expect(seen[seen.length - 1]).toBeGreaterThan(6.1);
    expect(h.media.paused).toBe(false);
  });
});

describe('reorder preview', () => {
  const segment = (k: number, start: number, end: number): ReorderSegment => ({
    id: `p${k}`,
    start,
    end,
    paragraphId: k,
    wordIndices: [k],
    type: 'paragraph',
  });
  const A = segment(0, 1, 2);
  const B = segment(1, 5, 6);
  const C = segment(2, 8, 8.2); // short: advances 20% (0.04 s) before its end, not 0.05 s

  function reorder(segments: ReorderSegment[], original: ReorderSegment[] = [A, B, C]): ReorderState {
    return { original, segments, words: [], paragraphs: [], transcriptVersion: 1 };
  }

  function start(h: Harness, segments: ReorderSegment[], index = 0) {
    h.workspace.update({ reorder: reorder(segments), reorderPreview: { index, restoreTime: 3 } });
  }

  it('plays the segments in their new order, then pauses at the end of the last and ends the preview', () => {
    const h = setup({ time: 8 });
    start(h, [C, B, A]);
    h.media.play();
    const seen: number[] = [];
    const seeks: number[] = [];
    const indices: number[] = [];
    for (let k = 0; k < 300 && !h.media.paused; k++) {
      const before = h.media.currentTime;
      seen.push(...h.playFrames(1));
      if (Math.abs(h.media.currentTime - (before + 0.016)) > 1e-6) seeks.push(h.media.currentTime);
      const index = h.workspace.getSnapshot().reorderPreview?.index;
      if (index !== undefined && indices[indices.length - 1] !== index) indices.push(index);
    }
    expect(seeks).toEqual([5, 1, 2]);
    expect(indices).toEqual([0, 1, 2]);
    expect(seen.every((t) => [A, B, C].some((s) => t >= s.start && t <= s.end))).toBe(true);
    expect(h.media.paused).toBe(true);
    expect(h.media.currentTime).toBe(2);
    expect(h.workspace.getSnapshot().reorderPreview).toBeNull();
    expect(h.workspace.getSnapshot().reorder).not.toBeNull(); // still in reorder mode
    expect(h.ended).toHaveBeenCalledTimes(1);
    expect(h.ended).toHaveBeenCalledWith('finished');
    expect(h.frames.pending).toBe(0);
  });

  it('moves on min(0.05 s, 20% of the segment) before its end', () => {
    const h = setup({ time: 5.5 });
    start(h, [B, C, A]);
    h.media.paused = false; // drive single checks without frames
    h.media.currentTime = 5.945;
    h.controller.check(0);
    expect(h.media.currentTime).toBe(5.945);
    expect(h.workspace.getSnapshot().reorderPreview?.index).toBe(0);
    h.media.currentTime = 5.955; // within 0.05 s of B's end (1 s long: 20% is 0.2 s)
    h.controller.check(0);
    expect(h.media.currentTime).toBe(8);
    expect(h.workspace.getSnapshot().reorderPreview?.index).toBe(1);
    h.media.currentTime = 8.155; // C is 0.2 s long: its window is 0.04 s, so 0.045 s before the end plays on
    h.controller.check(0);
    expect(h.media.currentTime).toBe(8.155);
    h.media.currentTime = 8.165;
    h.controller.check(0);
    expect(h.media.currentTime).toBe(1);
    expect(h.workspace.getSnapshot().reorderPreview?.index).toBe(2);
  });

  it('the frame lookahead counts toward the window', () => {
    const h = setup({ time: 5.5 });
    start(h, [B, A]);
    h.media.paused = false;
    h.media.currentTime = 5.94;
    h.controller.check(0);
    expect(h.media.currentTime).toBe(5.94);
    h.controller.check(0.016); // 5.94 + 0.016 is past 5.95
    expect(h.media.currentTime).toBe(1);
  });

  it('plays at full volume even in mute preview', () => {
    const h = setup({ time: 5.5, volume: 0.8 });
    h.workspace.update({ pendingMutes: [mute(5, 6, 'silence')] });
    h.workspace.update({ mutePreview: true });
    expect(h.media.volume).toBe(0);
    start(h, [B, A]);
    h.media.play();
    h.playFrames(3);
    expect(h.media.volume).toBe(0.8);
  });

  it('a seek far from the current segment returns to its start; seeks are not clamped by the controller', () => {
    const h = setup({ time: 5.2 });
    start(h, [B, A]);
    h.media.play();
    h.playFrames(2);
    h.media.userSeek(12);
    expect(h.media.currentTime).toBe(12); // not moved by the seek handler
    h.playFrames(1);
    expect(h.media.currentTime).toBe(5);
    expect(h.workspace.getSnapshot().reorderPreview?.index).toBe(0);
  });

  it('does nothing while paused', () => {
    const h = setup({ time: 5.99 });
    start(h, [B, A]);
    h.controller.check(0);
    expect(h.media.currentTime).toBe(5.99);
    expect(h.workspace.getSnapshot().reorderPreview?.index).toBe(0);
  });
});
