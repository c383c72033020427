/**
 * Shared test fixtures: the small edit lists the specs compute by hand. Excluded from the build
 * (see tsconfig.json); only specs import it.
 */
import { deepFreeze } from './arbitraries.spec-helpers';
import { identityEditList, type EditList } from './index';

/**
 * Source 60 s; plays 30-40 (output 0-10), then 0-10 (output 10-20), then 50-60 (output 20-30).
 * Frozen, so an accidental mutation throws in the code under test.
 */
export const sampleEditList = ({ mutes = [], burnCaptions = false }: Partial<Pick<EditList, 'mutes' | 'burnCaptions'>> = {}): EditList =>
  deepFreeze({
    sourceDuration: 60,
    segments: [
      { start: 30, end: 40 },
      { start: 0, end: 10 },
      { start: 50, end: 60 },
    ],
    mutes,
    burnCaptions,
  });

/** {@link sampleEditList} with a whisper (source 5-15 s) and a silence (source 38-52 s), and captions. */
export const mutedSampleEditList = (): EditList =>
  sampleEditList({
    mutes: [
      { start: 5, end: 15, level: 'whisper' },
      { start: 38, end: 52, level: 'silence' },
    ],
    burnCaptions: true,
  });

/** The whole 60 s source, in order (frozen). */
export const id60 = (): EditList => deepFreeze(identityEditList(60));
