import { MUTE_LEVELS } from '@wordcut/contracts';
import { MUTE_LEVEL_CHOICES } from './muteLevels';
import { actionForKey } from './actions';

const press = (key: string) => actionForKey({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false })?.id;

describe('mute level choices', () => {
  it('offers every level, in order, with the key that mutes at it', () => {
    expect(MUTE_LEVEL_CHOICES.map((c) => c.level)).toEqual([...MUTE_LEVELS]);
    expect(MUTE_LEVEL_CHOICES.map((c) => [c.label, c.key])).toEqual([
      ['Silence', '1'],
      ['Whisper', '2'],
      ['Background', '3'],
    ]);
    for (const choice of MUTE_LEVEL_CHOICES) expect(press(choice.key)).toBe(`mute-${choice.level}`);
  });
});
