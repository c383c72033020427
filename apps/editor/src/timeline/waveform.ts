/**
 * Waveform timeline math (pure): the synthetic fallback waveform, time <-> x mapping and the
 * bar layout the canvas draws. The canvas code only strokes what {@link layoutBars} returns.
 */

/**
 * A deterministic, speech-like stand-in waveform of `count` peaks in 0..1 (used when the waveform
 * call fails or returns no peaks). The same count always gives the same peaks.
 */
export function syntheticPeaks(count: number): number[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`syntheticPeaks: count must be a non-negative integer, got ${count}`);
  const peaks: number[] = new Array<number>(count);
  let seed = 0x2f6b4c1d;
  for (let i = 0; i < count; i += 1) {
    // xorshift32: cheap and deterministic
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    const noise = (seed >>> 0) / 0xffffffff;
    const envelope = 0.55 + 0.35 * Math.sin(i / 23) * Math.sin(i / 7.3);
    peaks[i] = Math.min(1, Math.max(0.05, envelope * (0.45 + 0.55 * noise)));
  }
  return peaks;
}

/** x (px) of a time on a timeline `width` px wide showing `duration` seconds; clamped to 0..width. */
export function timeToX(time: number, duration: number, width: number): number {
  if (!(duration > 0) || !(width > 0) || !Number.isFinite(time)) return 0;
  return Math.min(width, Math.max(0, (time / duration) * width));
}

/** The time under x (px) on a timeline `width` px wide showing `duration` seconds; clamped to 0..duration. */
export function xToTime(x: number, width: number, duration: number): number {
  if (!(duration > 0) || !(width > 0) || !Number.isFinite(x)) return 0;
  return Math.min(duration, Math.max(0, (x / width) * duration));
}

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface BarOptions {
  /** bar width in px (default 2) */
  barWidth?: number;
  /** gap between bars in px (default 1) */
  gap?: number;
  /** shortest bar in px, so silence still shows a line (default 1) */
  minHeight?: number;
}

/**
 * Bars for `peaks` (0..1) on a `width` x `height` canvas: as many bars as fit, each the
 * loudest peak of its share of the peaks, centred vertically.
 */
export function layoutBars(peaks: readonly number[], width: number, height: number, options: BarOptions = {}): Bar[] {
  const barWidth = options.barWidth ?? 2;
  const gap = options.gap ?? 1;
  const minHeight = options.minHeight ?? 1;
  if (peaks.length === 0 || !(width > 0) || !(height > 0)) return [];
  const count = Math.max(1, Math.floor((width + gap) / (barWidth + gap)));
  const bars: Bar[] = [];
  for (let i = 0; i < count; i += 1) {
    const from = Math.floor((i * peaks.length) / count);
    const to = Math.max(from + 1, Math.floor(((i + 1) * peaks.length) / count));
    let peak = 0;
    for (let j = from; j < to && j < peaks.length; j += 1) peak = Math.max(peak, Math.abs(peaks[j]!));
    const h = Math.max(minHeight, Math.min(1, peak) * height);
    bars.push({ x: i * (barWidth + gap), y: (height - h) / 2, width: barWidth, height: h });
  }
  return bars;
}

export interface DrawColors {
  /** bars after the playhead */
  bar: string;
  /** bars before the playhead */
  played: string;
}

/** Strokes the bars; bars left of `playedX` get the played colour. */
export function drawBars(ctx: CanvasRenderingContext2D, bars: readonly Bar[], colors: DrawColors, playedX = 0): void {
  for (const bar of bars) {
    ctx.fillStyle = bar.x + bar.width <= playedX ? colors.played : colors.bar;
    ctx.fillRect(bar.x, bar.y, bar.width, bar.height);
  }
}

/** Waveform points to request for a zoom level (percent): 1000 at 100%, more when zoomed in. */
export function waveformPoints(zoomPercent: number, base = 1000, max = 20000): number {
  const factor = Number.isFinite(zoomPercent) && zoomPercent > 0 ? zoomPercent / 100 : 1;
  return Math.min(max, Math.max(base, Math.round(base * factor)));
}
