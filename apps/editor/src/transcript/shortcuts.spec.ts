/** @jest-environment jsdom */
import { commandForKey, isTextEntryTarget } from './shortcuts';

const key = (k: string, mods: Partial<{ ctrl: boolean; meta: boolean; shift: boolean; alt: boolean }> = {}) => ({
  key: k,
  ctrlKey: !!mods.ctrl,
  metaKey: !!mods.meta,
  shiftKey: !!mods.shift,
  altKey: !!mods.alt,
});

describe('commandForKey', () => {
  it.each([
    [key('a', { ctrl: true }), 'select-all'],
    [key('z', { ctrl: true }), 'undo'],
    [key('Z', { ctrl: true, shift: true }), 'redo'],
    [key('z', { meta: true, shift: true }), 'redo'],
    [key('y', { ctrl: true }), 'redo'],
    [key('m', { ctrl: true }), 'detect-fillers'],
    [key('m', { meta: true }), 'detect-fillers'],
    [key('m'), 'mute-silence'],
    [key('M', { shift: true }), 'unmute'],
    [key('1'), 'mute-silence'],
    [key('2'), 'mute-whisper'],
    [key('3'), 'mute-background'],
    [key('Delete'), 'mark-cut'],
    [key('Backspace'), 'mark-cut'],
    [key('Escape'), 'escape'],
    [key('F2'), 'edit-word'],
  ])('%o -> %s', (event, command) => {
    expect(commandForKey(event)).toBe(command);
  });

  it('leaves copy, cut and paste to the clipboard events and other keys to the browser', () => {
    for (const k of ['c', 'x', 'v']) expect(commandForKey(key(k, { ctrl: true }))).toBeNull();
    expect(commandForKey(key('4'))).toBeNull();
    expect(commandForKey(key('m', { alt: true }))).toBeNull();
    expect(commandForKey(key('a'))).toBeNull();
    expect(commandForKey(key('Tab'))).toBeNull();
  });
});

describe('isTextEntryTarget', () => {
  it('is true for inputs and editable elements only', () => {
    expect(isTextEntryTarget(document.createElement('input'))).toBe(true);
    expect(isTextEntryTarget(document.createElement('textarea'))).toBe(true);
    expect(isTextEntryTarget(document.createElement('span'))).toBe(false);
    expect(isTextEntryTarget(null)).toBe(false);
  });
});
