import { MUTE_LEVELS, MUTE_VOLUME, muteLevelSchema } from './mute-levels';

describe('mute levels', () => {
  it('lists the levels in order of loudness, with their volumes', () => {
    expect(MUTE_LEVELS).toEqual(['silence', 'whisper', 'background']);
    expect(MUTE_VOLUME).toEqual({ silence: 0, whisper: 0.1, background: 0.3 });
    const volumes = MUTE_LEVELS.map((l) => MUTE_VOLUME[l]);
    expect([...volumes].sort((a, b) => a - b)).toEqual(volumes);
  });

  it('accepts only the three levels', () => {
    expect(muteLevelSchema.parse('whisper')).toBe('whisper');
    expect(muteLevelSchema.safeParse('loud').success).toBe(false);
  });
});
