/**
 * The transcript editor's keyboard shortcuts. With Ctrl/Cmd: C, X, V (the
 * browser's copy/cut/paste events carry them), A, Z, Shift+Z, Y and M (detect fillers). Plain
 * keys: M, 1, 2, 3, Delete, Backspace, Escape; Shift+M unmutes.
 */

export type EditorCommand =
  | 'select-all'
  | 'undo'
  | 'redo'
  | 'detect-fillers'
  | 'mute-silence'
  | 'mute-whisper'
  | 'mute-background'
  | 'unmute'
  | 'mark-cut'
  | 'escape'
  | 'edit-word';

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** The command a key press means in the transcript, or null (let the browser have it). */
export function commandForKey(e: KeyLike): EditorCommand | null {
  if (e.altKey) return null;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (e.ctrlKey || e.metaKey) {
    if (key === 'a' && !e.shiftKey) return 'select-all';
    if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
    if (key === 'y' && !e.shiftKey) return 'redo';
    if (key === 'm' && !e.shiftKey) return 'detect-fillers';
    return null;
  }
  switch (key) {
    case 'm':
      return e.shiftKey ? 'unmute' : 'mute-silence';
    case '1':
      return e.shiftKey ? null : 'mute-silence';
    case '2':
      return e.shiftKey ? null : 'mute-whisper';
    case '3':
      return e.shiftKey ? null : 'mute-background';
    case 'Delete':
    case 'Backspace':
      return 'mark-cut';
    case 'Escape':
      return 'escape';
    case 'F2':
      return 'edit-word';
    default:
      return null;
  }
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent || '');

/** 'Ctrl+Z' / '⌘Z' for tooltips and menus. */
export function shortcutLabel(keys: string): string {
  return isMac ? keys.replace(/Ctrl\+/g, '⌘').replace(/Shift\+/g, '⇧') : keys;
}

/** Shortcut text shown on each command's button and menu item. */
export const SHORTCUT_LABELS = {
  copy: 'Ctrl+C',
  cut: 'Ctrl+X',
  paste: 'Ctrl+V',
  selectAll: 'Ctrl+A',
  undo: 'Ctrl+Z',
  redo: 'Ctrl+Shift+Z',
  detectFillers: 'Ctrl+M',
  mute: 'M',
  muteSilence: '1',
  muteWhisper: '2',
  muteBackground: '3',
  unmute: 'Shift+M',
  markCut: 'Delete',
  escape: 'Esc',
  editWord: 'F2',
} as const;

/** True when the key press belongs to a text field (search, word edit) and not to the transcript. */
export function isTextEntryTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== 'string') return false;
  const el = target as HTMLElement;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable === true;
}
