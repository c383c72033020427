import { InfoDialog } from '../shared/dialogs';
import { shortcutSheet } from './actions';

/** 'Keyboard shortcuts' ('?' or the toolbar button): every action of the registry with its keys, by group. */
export function ShortcutSheet({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <InfoDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Keyboard shortcuts"
      description="In the transcript, with a word focused. Marks and mutes apply to the selection, or to the focused word when nothing is selected."
      className="wc-shortcut-sheet"
      testId="shortcut-sheet"
    >
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
    </InfoDialog>
  );
}
