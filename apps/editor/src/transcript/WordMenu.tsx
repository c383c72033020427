import type { ReactNode } from 'react';
import * as ContextMenu from '@radix-ui/react-context-menu';
import { muteLevelOfMark } from '@wordcut/editor-core';
import { copySelection, cutSelection, muteWords, removeFillerWord, restoreWords, selectWord, targetWords, toggleCutMarks, unmuteWords } from './commands';
import type { EditorCommandContext } from './commands';
import { useEditor } from './editorContext';
import { MUTE_LEVEL_CHOICES } from './muteLevels';
import { shortcutOf } from './actions';
import { shortcutLabel } from './shortcuts';

function MenuItem({ label, shortcut, onSelect, disabled = false, testId }: { label: string; shortcut?: string; onSelect: () => void; disabled?: boolean; testId?: string }) {
  return (
    <ContextMenu.Item className="wc-menu__item" onSelect={onSelect} disabled={disabled} data-testid={testId}>
      {label}{' '}
      {shortcut ? <kbd className="wc-menu__shortcut">{shortcutLabel(shortcut)}</kbd> : null}
    </ContextMenu.Item>
  );
}

/**
 * The word's context menu over the transcript (`children` is what it opens on): select, edit,
 * copy and cut the text; mark the word (or the selection) for muting or cutting; mute its similar
 * words (each level with its key); restore a marked word; remove it when it is a filler. Shortcuts
 * are listed beside their items. Not modal: the page behind stays as it is (never aria-hidden
 * while focusable); Escape or a click outside closes it.
 */
export function WordMenu({ word, onClose, onCloseFocus, commands, onEditWord, onMuteSimilar, children }: {
  /** the word the menu was opened on, null while closed */
  word: number | null;
  onClose: () => void;
  /** where focus goes when the menu closes (the transcript's word) */
  onCloseFocus: () => void;
  commands: EditorCommandContext;
  onEditWord: (index: number) => void;
  onMuteSimilar: (index: number) => void;
  children: ReactNode;
}) {
  const { editor } = commands;
  const isFiller = useEditor((s) => (word !== null ? (s.content.fillerWords.includes(word) ? 1 : 0) : 0) === 1);
  const isMuted = useEditor((s) => (word !== null ? muteLevelOfMark(s.marks[word] ?? 0) !== null : false));
  const isMarked = useEditor((s) => (word !== null ? (s.marks[word] ?? 0) !== 0 : false));
  return (
    <ContextMenu.Root modal={false} onOpenChange={(open) => (open ? undefined : onClose())}>
      <ContextMenu.Trigger asChild>{children}</ContextMenu.Trigger>
      <ContextMenu.Portal>
        <ContextMenu.Content
          className="wc-menu"
          data-testid="word-menu"
          aria-label="Word actions"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            onCloseFocus();
          }}
        >
          <MenuItem label="Select Word" onSelect={() => word !== null && selectWord(editor, word)} />
          <MenuItem label="Edit Word" shortcut={shortcutOf('edit-word')} onSelect={() => word !== null && setTimeout(() => onEditWord(word), 0)} />
          <MenuItem label="Copy" shortcut={shortcutOf('copy')} onSelect={() => copySelection(commands)} />
          <MenuItem
            label="Cut Selection"
            shortcut={shortcutOf('cut-text')}
            onSelect={() => {
              copySelection(commands);
              cutSelection(editor);
            }}
          />
          <ContextMenu.Separator className="wc-menu__separator" />
          <ContextMenu.Sub>
            <ContextMenu.SubTrigger className="wc-menu__item" data-testid="menu-mute">
              Mute Word <span className="wc-menu__shortcut" aria-hidden="true">▸</span>
            </ContextMenu.SubTrigger>
            <ContextMenu.Portal>
              <ContextMenu.SubContent className="wc-menu" aria-label="Mute level" data-testid="menu-mute-levels">
                {MUTE_LEVEL_CHOICES.map((choice) => (
                  <MenuItem
                    key={choice.level}
                    label={choice.label}
                    shortcut={choice.key}
                    testId={`menu-mute-${choice.level}`}
                    onSelect={() => muteWords(editor, targetWords(commands), choice.level)}
                  />
                ))}
              </ContextMenu.SubContent>
            </ContextMenu.Portal>
          </ContextMenu.Sub>
          <MenuItem label="Unmute Word" shortcut={shortcutOf('unmute')} disabled={!isMuted} onSelect={() => unmuteWords(editor, targetWords(commands))} />
          <MenuItem label="Mute Similar" onSelect={() => word !== null && onMuteSimilar(word)} />
          <ContextMenu.Separator className="wc-menu__separator" />
          <MenuItem label="Remove Filler Word" disabled={!isFiller} onSelect={() => word !== null && removeFillerWord(editor, word)} />
          <MenuItem label="Delete Word" shortcut={shortcutOf('mark-cut')} onSelect={() => toggleCutMarks(editor, targetWords(commands))} />
          <MenuItem label="Restore Word" disabled={!isMarked} testId="menu-restore" onSelect={() => restoreWords(editor, targetWords(commands))} />
        </ContextMenu.Content>
      </ContextMenu.Portal>
    </ContextMenu.Root>
  );
}
