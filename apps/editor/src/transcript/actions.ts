/**
 * The editor's action registry: every action a person can take in the transcript, with its label,
 * its keys, when it is enabled, what it runs and whether it makes an undoable step. Shortcuts are
 * looked up here, the toolbars and menus take their labels and keys from here, and the shortcut
 * sheet ('?') lists it. Actions whose keys the browser or the word list handle (copy, arrows) have
 * no `run`: they are here so that every key is written down in one place.
 */
import type { EditorCommandContext } from './commands';
import {
  escapeCommand,
  flagKeyboardFillers,
  muteWords,
  selectAllWords,
  targetWords,
  toggleCutMarks,
  unmuteWords,
} from './commands';
import { keyCombo, shortcutLabel } from './shortcuts';
import type { KeyLike } from './shortcuts';

export type ActionGroup = 'Playback' | 'Selection' | 'Marks' | 'Text' | 'History' | 'Help';

/** What an action runs with: the editor's commands plus the page's controls. */
export interface ActionContext extends EditorCommandContext {
  openEdit: (index: number) => void;
  togglePlayback: () => void;
  openShortcuts: () => void;
}

export interface EditorAction {
  id: string;
  label: string;
  /** the keys, as a person presses them ('Ctrl' is Cmd on a Mac); the first is the one shown on buttons */
  keys: readonly string[];
  group: ActionGroup;
  /** it records a step the history can undo */
  undoable: boolean;
  /** 'word': only while a transcript word has the focus (Space plays there, and presses buttons elsewhere) */
  scope?: 'word';
  enabled?: (c: ActionContext) => boolean;
  run?: (c: ActionContext) => void;
}

const hasTarget = (c: ActionContext) => targetWords(c).length > 0;

export const EDITOR_ACTIONS = [
  { id: 'play-pause', label: 'Play or pause', keys: ['Space'], group: 'Playback', undoable: false, scope: 'word', run: (c) => c.togglePlayback() },
  { id: 'play-from-word', label: 'Play from the word', keys: ['Enter'], group: 'Playback', undoable: false },
  { id: 'move', label: 'Move between words', keys: ['Arrow keys', 'Home', 'End'], group: 'Selection', undoable: false },
  { id: 'extend', label: 'Extend the selection', keys: ['Shift+Arrow keys'], group: 'Selection', undoable: false },
  { id: 'select-word', label: 'Select the word', keys: ['Shift+Space'], group: 'Selection', undoable: false },
  { id: 'toggle-word', label: 'Add or remove the word', keys: ['Ctrl+Space'], group: 'Selection', undoable: false },
  { id: 'select-all', label: 'Select all', keys: ['Ctrl+A'], group: 'Selection', undoable: false, run: (c) => selectAllWords(c.editor) },
  { id: 'escape', label: 'Clear the selection', keys: ['Escape'], group: 'Selection', undoable: false, run: (c) => escapeCommand(c.editor) },
  { id: 'selection-toolbar', label: 'Reach the selection toolbar', keys: ['Alt+F10'], group: 'Selection', undoable: false },
  { id: 'mark-cut', label: 'Mark for cutting', keys: ['Delete', 'Backspace'], group: 'Marks', undoable: true, enabled: hasTarget, run: (c) => toggleCutMarks(c.editor, targetWords(c)) },
  { id: 'mute-silence', label: 'Mute: Silence', keys: ['1', 'M'], group: 'Marks', undoable: true, enabled: hasTarget, run: (c) => muteWords(c.editor, targetWords(c), 'silence') },
  { id: 'mute-whisper', label: 'Mute: Whisper', keys: ['2'], group: 'Marks', undoable: true, enabled: hasTarget, run: (c) => muteWords(c.editor, targetWords(c), 'whisper') },
  { id: 'mute-background', label: 'Mute: Background', keys: ['3'], group: 'Marks', undoable: true, enabled: hasTarget, run: (c) => muteWords(c.editor, targetWords(c), 'background') },
  { id: 'unmute', label: 'Unmute', keys: ['Shift+M'], group: 'Marks', undoable: true, enabled: hasTarget, run: (c) => unmuteWords(c.editor, targetWords(c)) },
  { id: 'edit-word', label: 'Edit the word', keys: ['F2'], group: 'Text', undoable: true, run: (c) => {
      const index = c.focusedWord();
      if (index !== undefined) c.openEdit(index);
    } },
  { id: 'word-menu', label: 'Open the word menu', keys: ['Shift+F10', 'ContextMenu'], group: 'Text', undoable: false },
  { id: 'detect-fillers', label: 'Flag filler words', keys: ['Ctrl+M'], group: 'Text', undoable: true, run: (c) => flagKeyboardFillers(c) },
  { id: 'copy', label: 'Copy', keys: ['Ctrl+C'], group: 'Text', undoable: false },
  { id: 'cut-text', label: 'Cut the text', keys: ['Ctrl+X'], group: 'Text', undoable: true },
  { id: 'paste', label: 'Paste', keys: ['Ctrl+V'], group: 'Text', undoable: true },
  { id: 'undo', label: 'Undo', keys: ['Ctrl+Z'], group: 'History', undoable: false, run: (c) => (c.stepHistory ? c.stepHistory('undo') : void c.editor.undo()) },
  { id: 'redo', label: 'Redo', keys: ['Ctrl+Shift+Z', 'Ctrl+Y'], group: 'History', undoable: false, run: (c) => (c.stepHistory ? c.stepHistory('redo') : void c.editor.redo()) },
  { id: 'shortcuts', label: 'Keyboard shortcuts', keys: ['?'], group: 'Help', undoable: false, run: (c) => c.openShortcuts() },
] as const satisfies readonly EditorAction[];

export type ActionId = (typeof EDITOR_ACTIONS)[number]['id'];

const BY_ID = new Map<string, EditorAction>(EDITOR_ACTIONS.map((a) => [a.id, a]));

/** The action of `id`. */
export function action(id: ActionId): EditorAction {
  return BY_ID.get(id)!;
}

const BY_KEY = new Map<string, EditorAction>();
for (const a of EDITOR_ACTIONS as readonly EditorAction[]) if (a.run) for (const k of a.keys) BY_KEY.set(k, a);

/**
 * The action a key press runs in the transcript, or null (the browser or the word list has it).
 * `onWord`: a transcript word has the focus (actions scoped to words run only then).
 */
export function actionForKey(e: KeyLike, onWord = true): EditorAction | null {
  const found = BY_KEY.get(keyCombo(e)) ?? null;
  if (!found || (found.scope === 'word' && !onWord)) return null;
  return found;
}

/** Runs an action when it is enabled; answers whether it ran. */
export function runAction(context: ActionContext, a: EditorAction): boolean {
  if (!a.run || (a.enabled && !a.enabled(context))) return false;
  a.run(context);
  return true;
}

const KEY_NAMES: Record<string, string> = { Escape: 'Esc', ContextMenu: 'Menu' };

/** A key as written for people ('Esc', '⌘Z' on a Mac). */
export function keyLabel(key: string): string {
  return shortcutLabel(KEY_NAMES[key] ?? key);
}

/** The shortcut written on an action's button and menu item (its first key). */
export function shortcutOf(id: ActionId): string {
  return keyLabel(action(id).keys[0]!);
}

/** The shortcut sheet: groups in order, each with its actions and their keys written for people. */
export function shortcutSheet(): Array<{ group: ActionGroup; actions: Array<{ id: string; label: string; keys: string[] }> }> {
  const groups: ActionGroup[] = ['Playback', 'Selection', 'Marks', 'Text', 'History', 'Help'];
  return groups.map((group) => ({
    group,
    actions: (EDITOR_ACTIONS as readonly EditorAction[]).filter((a) => a.group === group).map((a) => ({ id: a.id, label: a.label, keys: a.keys.map(keyLabel) })),
  }));
}
