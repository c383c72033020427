import { MUTE_LEVELS } from '@wordcut/contracts';
import type { MuteLevel } from '@wordcut/contracts';
import { shortcutOf } from './actions';

/** A mute level as the editor offers it: its name and its key. */
export interface MuteLevelChoice {
  level: MuteLevel;
  label: string;
  key: string;
}

/** Each level's name on screen. */
export const MUTE_LEVEL_NAMES: Readonly<Record<MuteLevel, string>> = { silence: 'Silence', whisper: 'Whisper', background: 'Background' };

const KEYS: Readonly<Record<MuteLevel, string>> = {
  silence: shortcutOf('mute-silence'),
  whisper: shortcutOf('mute-whisper'),
  background: shortcutOf('mute-background'),
};

/** Silence (1), Whisper (2), Background (3): every place that mutes offers these three. */
export const MUTE_LEVEL_CHOICES: readonly MuteLevelChoice[] = MUTE_LEVELS.map((level) => ({
  level,
  label: MUTE_LEVEL_NAMES[level],
  key: KEYS[level],
}));
