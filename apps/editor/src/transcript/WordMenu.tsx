import type { ReactNode } from 'react';
import * as ContextMenu from '@radix-ui/react-context-menu';
import { muteLevelOfMark } from '@wordcut/editor-core';
import { copySelection, cutSelection, muteWords, removeFillerWord, selectWord, targetWords, toggleCutMarks, unmuteWords } from './commands';
import type { EditorCommandContext } from './commands';
import { useEditor } from './editorContext';
import { SHORTCUT_LABELS, shortcutLabel } from './shortcuts';

function MenuItem({ label, shortcut, onSelect, disabled = false }: { label: string; shortcut?: string; onSelect: () => void; disabled?: boolean }) {
  return (
    <ContextMenu.Item className="wc-menu__item" onSelect={onSelect} disabled={disabled}>
      {label}
      {shortcut ? <span className="wc-menu__shortcut">{shortcutLabel(shortcut)}</span> : null}
    </ContextMenu.Item>
  );
}

/**
 * The word's context menu over the transcript (`children` is what it opens on): select, edit,
 * copy and cut the text; mark the word (or the selection) for muting or cutting; mute its similar
 * words; remove it when it is a filler. Shortcuts are listed beside their items.
 */
export function WordMenu({ word, onClose, commands, onEditWord, onMuteSimilar, children }: {
  /** the word the menu was opened on, null while closed */
  word: number | null;
  onClose: () => void;
  commands: EditorCommandContext;
  onEditWord: (index: number) => void;
  onMuteSimilar: (index: number) => void;
  children: ReactNode;
}) {
  const { editor } = commands;
  const isFiller = useEditor((s) => (word !== null ? (s.content.fillerWords.includes(word) ? 1 : 0) : 0) === 1);
  const isMuted = useEditor((s) => (word !== null ? muteLevelOfMark(s.marks[word] ?? 0) !== null : false));
  return (
    <ContextMenu.Root onOpenChange={(open) => (open ? undefined : onClose())}>
      <ContextMenu.Trigger asChild>{children}</ContextMenu.Trigger>
      <ContextMenu.Portal>
        <ContextMenu.Content className="wc-menu" data-testid="word-menu" aria-label="Word actions">
          <MenuItem label="Select Word" onSelect={() => word !== null && selectWord(editor, word)} />
          <MenuItem label="Edit Word" shortcut={SHORTCUT_LABELS.editWord} onSelect={() => word !== null && setTimeout(() => onEditWord(word), 0)} />
          <MenuItem label="Copy" shortcut={SHORTCUT_LABELS.copy} onSelect={() => copySelection(commands)} />
          <MenuItem
            label="Cut Selection"
            shortcut={SHORTCUT_LABELS.cut}
            onSelect={() => {
              copySelection(commands);
              cutSelection(editor);
            }}
          />
          <ContextMenu.Separator className="wc-menu__separator" />
          <MenuItem label="Mute Word" shortcut={SHORTCUT_LABELS.mute} onSelect={() => muteWords(editor, targetWords(commands), 'silence')} />
          <MenuItem label="Unmute Word" shortcut={SHORTCUT_LABELS.unmute} disabled={!isMuted} onSelect={() => unmuteWords(editor, targetWords(commands))} />
          <MenuItem label="Mute Similar" onSelect={() => word !== null && onMuteSimilar(word)} />
          <ContextMenu.Separator className="wc-menu__separator" />
          <MenuItem label="Remove Filler Word" disabled={!isFiller} onSelect={() => word !== null && removeFillerWord(editor, word)} />
          <MenuItem label="Delete Word" shortcut={SHORTCUT_LABELS.markCut} onSelect={() => toggleCutMarks(editor, targetWords(commands))} />
        </ContextMenu.Content>
      </ContextMenu.Portal>
    </ContextMenu.Root>
  );
}
