/**
 * Key presses as the editor's action registry reads them (actions.ts holds which action each
 * combination runs), key labels for tooltips and menus, and which targets own their keys.
 */

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/**
 * A key press as written on buttons and the shortcut sheet: modifiers first ('Ctrl+Shift+Z';
 * Cmd counts as Ctrl), letters upper case, the space bar 'Space'. Shift is left out for
 * characters that need it ('?'), since the character already says so.
 */
export function keyCombo(e: KeyLike): string {
  const key = e.key === ' ' ? 'Space' : e.key.length === 1 ? e.key.toUpperCase() : e.key;
  const symbol = e.key.length === 1 && !/[a-z0-9 ]/i.test(e.key);
  return `${e.ctrlKey || e.metaKey ? 'Ctrl+' : ''}${e.altKey ? 'Alt+' : ''}${e.shiftKey && !symbol ? 'Shift+' : ''}${key}`;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent || '');

/** 'Ctrl+Z' / '⌘Z' for tooltips and menus. */
export function shortcutLabel(keys: string): string {
  return isMac ? keys.replace(/Ctrl\+/g, '⌘').replace(/Shift\+/g, '⇧') : keys;
}

/** True when the key press belongs to a text field (search, word edit) and not to the transcript. */
export function isTextEntryTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== 'string') return false;
  const el = target as HTMLElement;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable === true;
}
