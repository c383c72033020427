/**
 * Step 1 of pause analysis: the silent stretches of a recording, from its stored frame-energy
 * series, with a threshold relative to the recording's own noise floor.
 */
import { ENERGY_DB_STEP, ENERGY_FLOOR_DB, energyDb } from '@wordcut/contracts';
import { roundTime } from './text';

export interface TimeSpan {
  start: number;
  end: number;
}

/** A silent stretch of the audio and its mean level (dBFS). */
export interface SilentSpan extends TimeSpan {
  levelDb: number;
}

/** What findSilentSpans reads: EnergySeries of @wordcut/contracts, or any level bytes. */
export interface EnergyLevels {
  durationSec: number;
  framesPerSecond: number;
  /** one level byte per frame (energyDb) */
  levels: ArrayLike<number>;
}

export interface SilentSpans {
  spans: SilentSpan[];
  /** the recording's noise floor, its speech level and the threshold between them (dBFS) */
  noiseFloorDb: number;
  speechLevelDb: number;
  thresholdDb: number;
}

/** The tunable numbers of findSilentSpans. */
export const SILENCE_LEVEL_RULES = Object.freeze({
  /** the noise floor is this percentile of the frame levels (the quietest tenth of the recording) */
  floorPercentile: 10,
  /** the speech level is this percentile */
  speechPercentile: 95,
  /** the threshold sits this share of the way from the floor to the speech level ... */
  marginShare: 0.25,
  /** ... but at least this far above the floor, and at most this far */
  minMarginDb: 6,
  maxMarginDb: 18,
  /** frames at or below this are silent whatever the floor (inaudible when played back) */
  inaudibleDb: -80,
  /** and the threshold stays at least this far below the speech level */
  speechHeadroomDb: 12,
  /** less contrast than this between floor and speech: one level throughout, no pauses to find */
  minContrastDb: 12,
  /** a sound of at most this many frames between silences, quieter than threshold + clickHeadroomDb, is a click, not speech */
  maxClickFrames: 2,
  clickHeadroomDb: 10,
  /** silent stretches shorter than this are gaps inside speech, not pauses */
  minSpanSec: 0.1,
});

/**
 * The silent stretches of a recording. A frame is silent when its level is at or below the
 * threshold: the noise floor (a low percentile of all frame levels) plus a share of the distance
 * to the speech level, never below what is inaudible anyway and never close to speech. One- or
 * two-frame clicks between silences do not break them; stretches shorter than minSpanSec are not
 * kept. The edges sit in the middle of the frame where the sound stops or starts (the frame is
 * 10 ms at 100 frames/s), except at the media's start and end.
 */
export function findSilentSpans(series: EnergyLevels, rules: typeof SILENCE_LEVEL_RULES = SILENCE_LEVEL_RULES): SilentSpans {
  const { levels, framesPerSecond: fps, durationSec } = series;
  const n = levels.length;
  const hist = new Array<number>(256).fill(0);
  for (let i = 0; i < n; i++) hist[levels[i]!]!++;
  const percentile = (p: number): number => {
    const rank = Math.max(1, Math.ceil((p / 100) * n));
    let seen = 0;
    for (let b = 0; b < 256; b++) {
      seen += hist[b]!;
      if (seen >= rank) return b;
    }
    return 255;
  };
  const noiseFloorDb = n === 0 ? ENERGY_FLOOR_DB : energyDb(percentile(rules.floorPercentile));
  const speechLevelDb = n === 0 ? ENERGY_FLOOR_DB : energyDb(percentile(rules.speechPercentile));
  const contrast = speechLevelDb - noiseFloorDb;
  let thresholdDb = noiseFloorDb + Math.min(rules.maxMarginDb, Math.max(rules.minMarginDb, contrast * rules.marginShare));
  thresholdDb = Math.min(Math.max(thresholdDb, rules.inaudibleDb), speechLevelDb - rules.speechHeadroomDb);
  if (contrast < rules.minContrastDb) {
    // one level throughout: all silence when that level is inaudible, otherwise no pause at all
    thresholdDb = speechLevelDb <= rules.inaudibleDb ? rules.inaudibleDb : ENERGY_FLOOR_DB - 1;
  }
  const silentMax = Math.floor((thresholdDb - ENERGY_FLOOR_DB) / ENERGY_DB_STEP + 1e-9);
  const clickMax = Math.floor((thresholdDb + rules.clickHeadroomDb - ENERGY_FLOOR_DB) / ENERGY_DB_STEP + 1e-9);
  const silent = new Uint8Array(n);
  for (let i = 0; i < n; i++) silent[i] = levels[i]! <= silentMax ? 1 : 0;
  // clicks: short faint sounds with silence on both sides
  for (let i = 1; i < n; i++) {
    if (silent[i] || !silent[i - 1]) continue;
    let j = i;
    while (j < n && !silent[j] && j - i < rules.maxClickFrames + 1) j++;
    if (j < n && silent[j] && j - i <= rules.maxClickFrames) {
      let faint = true;
      for (let k = i; k < j; k++) faint &&= levels[k]! <= clickMax;
      if (faint) for (let k = i; k < j; k++) silent[k] = 1;
    }
    i = j;
  }
  const spans: SilentSpan[] = [];
  for (let a = 0; a < n; ) {
    if (!silent[a]) {
      a++;
      continue;
    }
    let b = a;
    let sum = 0;
    while (b < n && silent[b]) sum += energyDb(levels[b++]!);
    const start = a === 0 ? 0 : Math.max(0, (a - 0.5) / fps);
    const end = b === n ? durationSec : (b + 0.5) / fps;
    const clipped = { start: roundTime(Math.min(start, durationSec)), end: roundTime(Math.min(end, durationSec)) };
    if (clipped.end - clipped.start >= rules.minSpanSec) spans.push({ ...clipped, levelDb: Math.round((sum / (b - a)) * 10) / 10 });
    a = b;
  }
  return { spans, noiseFloorDb, speechLevelDb, thresholdDb };
}
