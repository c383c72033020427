import * as Dialog from '@radix-ui/react-dialog';
import { useRestoreFocus } from '@wordcut/ui';
import { shortcutSheet } from './actions';

/** 'Keyboard shortcuts' ('?' or the toolbar button): every action of the registry with its keys, by group. */
export function ShortcutSheet({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const focus = useRestoreFocus();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="wc-dialog-overlay" />
        <Dialog.Content className="wc-dialog wc-shortcut-sheet" data-testid="shortcut-sheet" {...focus}>
          <Dialog.Title className="wc-dialog__title">Keyboard shortcuts</Dialog.Title>
          <Dialog.Description className="wc-muted">
            In the transcript, with a word focused. Marks and mutes apply to the selection, or to the focused word when nothing is selected.
          </Dialog.Description>
          <div className="wc-shortcut-sheet__groups">
            {shortcutSheet().map(({ group, actions }) => (
              <section key={group} aria-labelledby={`shortcut-group-${group}`}>
                <h3 id={`shortcut-group-${group}`}>{group}</h3>
                <dl>
                  {actions.map((a) => (
                    <div key={a.id} className="wc-shortcut-sheet__row" data-action={a.id}>
                      <dt>{a.label}</dt>
                      <dd>
                        {a.keys.map((k, i) => (
                          <span key={k}>
                            {i > 0 ? <span className="wc-muted"> or </span> : null}
                            <kbd>{k}</kbd>
                          </span>
                        ))}
                      </dd>
                    </div>
                  ))}
                </dl>
              </section>
            ))}
          </div>
          <div className="wc-dialog__actions">
            <Dialog.Close className="wc-button wc-button--primary">Close</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
