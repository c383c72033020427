import {
  MIN_PAUSE_DURATION_DEFAULT,
  MIN_PAUSE_DURATION_MAX,
  MIN_PAUSE_DURATION_MIN,
} from '@wordcut/contracts';
import type { DetectSilenceResponse, SilenceRecommendation, SilenceSegment } from '@wordcut/contracts';
import { summarizeList } from '@wordcut/editor-core';
import { lowerBound, padRemovalRanges } from '@wordcut/transcript';
import { createStore } from '@wordcut/ui';
import type { PendingSilence } from '../shared/workspace';

/**
 * The silence panel's state, outside React: the slider, the last analysis, the user's remove/keep
 * decision per pause, and which of the panel's dialogs is open. Everything derived from it (the
 * ranges to remove, the time saved, what the player skips) is a plain function below.
 */

/** Slider step: 0.1 s. */
export const MIN_PAUSE_STEP = 0.1;
/** Context text on each side of a pause is cut to this many characters. */
export const CONTEXT_MAX_CHARS = 60;
/** The confirmation lists this many pauses, then 'and n more'. */
export const CONFIRM_LIST_MAX = 5;
/** A row click seeks this far before the pause, so the preview plays into it. */
export const PREVIEW_LEAD_SECONDS = 1.5;

export interface SilenceState {
  panelOpen: boolean;
  helpOpen: boolean;
  confirmOpen: boolean;
  /** Burn Captions asks first */
  captionsConfirmOpen: boolean;
  /** the minimum-pause slider, seconds */
  minPauseDuration: number;
  /** use the speaker's own threshold when it is lower (on by default) */
  useAutoThresholds: boolean;
  /** a detection call is on its way */
  detecting: boolean;
  analysis: DetectSilenceResponse | null;
  /** the user's choice per pause id; a pause without one keeps the server's recommendation */
  decisions: Readonly<Record<string, SilenceRecommendation>>;
  /** the removal job's start call is on its way (the overlay shows it starting) */
  starting: boolean;
  /** the pause last clicked in the list */
  selectedId: string | null;
}

export const INITIAL_SILENCE_STATE: SilenceState = Object.freeze({
  panelOpen: false,
  helpOpen: false,
  confirmOpen: false,
  captionsConfirmOpen: false,
  minPauseDuration: MIN_PAUSE_DURATION_DEFAULT,
  useAutoThresholds: true,
  detecting: false,
  analysis: null,
  decisions: Object.freeze({}),
  starting: false,
  selectedId: null,
});

/** One page's silence state: get, patch, subscribe. */
export class SilenceStore {
  constructor(readonly videoId: string) {}
  private readonly state = createStore<SilenceState>(INITIAL_SILENCE_STATE);
  getSnapshot = (): SilenceState => this.state.get();
  subscribe = (listener: () => void): (() => void) => this.state.subscribe(listener);
  update(patch: Partial<SilenceState>): void {
    const current = this.state.get();
    if ((Object.keys(patch) as Array<keyof SilenceState>).some((k) => patch[k] !== current[k])) this.state.set({ ...current, ...patch });
  }
}

/** The slider's value held to 0.1..10 s on its 0.1 s steps. */
export function clampMinPause(value: number): number {
  if (!Number.isFinite(value)) return MIN_PAUSE_DURATION_DEFAULT;
  const stepped = Math.round(value / MIN_PAUSE_STEP) * MIN_PAUSE_STEP;
  return Math.round(Math.min(MIN_PAUSE_DURATION_MAX, Math.max(MIN_PAUSE_DURATION_MIN, stepped)) * 10) / 10;
}

/** What the user chose for a pause, else what the server recommends. */
export function decisionOf(state: Pick<SilenceState, 'decisions'>, silence: SilenceSegment): SilenceRecommendation {
  return state.decisions[silence.id] ?? silence.recommendation;
}

/** The pauses marked remove, in time order. */
export function markedForRemoval(state: Pick<SilenceState, 'analysis' | 'decisions'>): SilenceSegment[] {
  return (state.analysis?.silences ?? []).filter((s) => decisionOf(state, s) === 'remove');
}

/** What process-silence is sent: each pause marked remove, as it was measured. */
export function removalRequest(state: Pick<SilenceState, 'analysis' | 'decisions'>): Array<{ start: number; end: number }> {
  return markedForRemoval(state).map((s) => ({ start: s.startTime, end: s.endTime }));
}

/** Seconds the marked pauses take off the video once the server keeps its padding next to speech. */
export function estimatedTimeSaved(state: Pick<SilenceState, 'analysis' | 'decisions'>, duration: number): number {
  const padding = state.analysis?.summary.padding ?? 0;
  const ranges = padRemovalRanges(removalRequest(state), { padding, duration });
  return Math.round(ranges.reduce((total, r) => total + (r.end - r.start), 0) * 10) / 10;
}

/** What the player's silence preview and the timeline read: every pause with its current decision. */
export function pendingSilencesOf(state: Pick<SilenceState, 'analysis' | 'decisions'>): PendingSilence[] {
  return (state.analysis?.silences ?? []).map((s) => ({ startTime: s.startTime, endTime: s.endTime, recommendation: decisionOf(state, s) }));
}

/** The confirmation's list: the first five pauses marked remove, then how many more. */
export function confirmationList(state: Pick<SilenceState, 'analysis' | 'decisions'>): { shown: SilenceSegment[]; more: number } {
  return summarizeList(markedForRemoval(state), CONFIRM_LIST_MAX);
}

/** Text before a pause, cut from its start so the words next to the pause stay ('…the end'). */
export function precedingContext(text: string, max = CONTEXT_MAX_CHARS): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `…${trimmed.slice(trimmed.length - max + 1).trimStart()}`;
}

/** Text after a pause, cut at its end ('the start…'). */
export function followingContext(text: string, max = CONTEXT_MAX_CHARS): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `${trimmed.slice(0, max - 1).trimEnd()}…`;
}

/**
 * Where each pause marked remove shows in the transcript: before the first word that starts at or
 * after the pause's middle (a pause after the last word shows after it, at words.length).
 * Word index -> the seconds marked there.
 */
export function removalMarksByWord(words: readonly { start: number; end: number }[], state: Pick<SilenceState, 'analysis' | 'decisions'>): Map<number, number> {
  const marks = new Map<number, number>();
  for (const s of markedForRemoval(state)) {
    const middle = (s.startTime + s.endTime) / 2;
    const index = lowerBound(words, (w) => (w.start + w.end) / 2 >= middle);
    marks.set(index, (marks.get(index) ?? 0) + s.duration);
  }
  return marks;
}

/** Seconds as the panel shows them: '2.0 s'. */
export function formatSeconds(seconds: number): string {
  return `${seconds.toFixed(1)} s`;
}
