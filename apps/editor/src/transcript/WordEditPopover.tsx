import { useMemo, useState } from 'react';
import * as Popover from '@radix-ui/react-popover';

/** The word-edit popover at the word: an 'Edit Word' input with Cancel and Save; an empty word is refused. */
export function WordEditPopover({ rect, initial, onCancel, onSave }: { rect: DOMRect; initial: string; onCancel: () => void; onSave: (text: string) => void }) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const anchor = useMemo(() => ({ current: { getBoundingClientRect: () => rect } }), [rect]);
  const save = () => {
    if (!text.trim()) {
      setError('A word cannot be empty. Use Delete Word to cut it instead.');
      return;
    }
    onSave(text);
  };
  return (
    <Popover.Root open onOpenChange={(open) => (open ? undefined : onCancel())}>
      <Popover.Anchor virtualRef={anchor} />
      <Popover.Portal>
        <Popover.Content className="wc-popover" data-testid="word-edit" sideOffset={6} collisionPadding={8}>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              save();
            }}
          >
            <label className="wc-field">
              <span>Edit Word</span>
              <input autoFocus value={text} onChange={(e) => setText(e.target.value)} aria-invalid={error ? true : undefined} />
            </label>
            {error ? (
              <p className="wc-error-text" role="alert">
                {error}
              </p>
            ) : null}
            <div className="wc-dialog__actions">
              <button type="button" className="wc-button" onClick={onCancel}>
                Cancel
              </button>
              <button type="submit" className="wc-button wc-button--primary">
                Save
              </button>
            </div>
          </form>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
