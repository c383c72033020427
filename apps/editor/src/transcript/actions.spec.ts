/** @jest-environment jsdom */
import { EDITOR_ACTIONS, actionForKey, shortcutOf, shortcutSheet } from './actions';
import type { EditorAction } from './actions';
import { isTextEntryTarget, keyCombo } from './shortcuts';

const key = (k: string, mods: Partial<{ ctrl: boolean; meta: boolean; shift: boolean; alt: boolean }> = {}) => ({
  key: k,
  ctrlKey: !!mods.ctrl,
  metaKey: !!mods.meta,
  shiftKey: !!mods.shift,
  altKey: !!mods.alt,
});

describe('actionForKey (the registry decides what a key press runs)', () => {
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
    [key(' '), 'play-pause'],
    [key('?', { shift: true }), 'shortcuts'],
  ])('%o -> %s', (event, id) => {
    expect(actionForKey(event)?.id).toBe(id);
  });

  it('Space plays only on a transcript word (elsewhere it presses the focused button)', () => {
    expect(actionForKey(key(' '), false)).toBeNull();
    expect(actionForKey(key('?', { shift: true }), false)?.id).toBe('shortcuts');
  });

  it('leaves copy, cut, paste, word selection and other keys to the browser and the word list', () => {
    for (const k of ['c', 'x', 'v']) expect(actionForKey(key(k, { ctrl: true }))).toBeNull();
    expect(actionForKey(key(' ', { shift: true }))).toBeNull();
    expect(actionForKey(key(' ', { ctrl: true }))).toBeNull();
    expect(actionForKey(key('4'))).toBeNull();
    expect(actionForKey(key('m', { alt: true }))).toBeNull();
    expect(actionForKey(key('a'))).toBeNull();
    expect(actionForKey(key('Tab'))).toBeNull();
    expect(actionForKey(key('!', { shift: true }))).toBeNull();
  });
});

describe('the registry', () => {
  it('gives every action an id, a label and keys, and no key two runnable actions', () => {
    const ids = EDITOR_ACTIONS.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    const keys = (EDITOR_ACTIONS as readonly EditorAction[]).filter((a) => a.run).flatMap((a) => a.keys);
    expect(new Set(keys).size).toBe(keys.length);
    for (const a of EDITOR_ACTIONS) expect(a.label.length * a.keys.length).toBeGreaterThan(0);
  });

  it('writes the shortcuts buttons and menus show, and lists every action once in the sheet', () => {
    expect([shortcutOf('undo'), shortcutOf('mark-cut'), shortcutOf('escape'), shortcutOf('mute-silence'), shortcutOf('shortcuts')]).toEqual(['Ctrl+Z', 'Delete', 'Esc', '1', '?']);
    const sheet = shortcutSheet();
    expect(sheet.flatMap((g) => g.actions.map((a) => a.id)).sort()).toEqual(EDITOR_ACTIONS.map((a) => a.id).sort());
    expect(sheet.find((g) => g.group === 'Playback')!.actions[0]).toEqual({ id: 'play-pause', label: 'Play or pause', keys: ['Space'] });
  });

  it('writes key presses as people read them', () => {
    expect([keyCombo(key('z', { meta: true, shift: true })), keyCombo(key(' ')), keyCombo(key('?', { shift: true })), keyCombo(key('F2'))]).toEqual(['Ctrl+Shift+Z', 'Space', '?', 'F2']);
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
