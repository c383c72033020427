import { useEffect, useId, useRef, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import type { QuotaUsage } from '@wordcut/contracts';
import { useRestoreFocus } from '@wordcut/ui';
import {
  CANCEL_LABEL,
  CLIPS_GROUP,
  CLONE_TOGGLE_LABEL,
  MAIN_VIDEO_GROUP,
  PUBLISH_DIALOG_TITLE,
  QUOTA_EXCEEDED_MESSAGE,
  QUOTA_WARNING_MESSAGE,
  SUBTITLES_GROUP,
  allSelected,
  cloneToggleVisible,
  confirmDisabled,
  confirmLabel,
  evaluateQuota,
  initialSelection,
  itemKey,
  quotaDisplay,
  selectedItems,
  selectionError,
  toggleAll,
  toggleItem,
} from '@wordcut/publishing';
import type { ExportableItem, ExportableItemType } from '@wordcut/publishing';
import { PROVIDER_NAME } from './provider';

/**
 * The 'Publish changes' dialog: 600 px wide from the sm breakpoint; the quota, a select-all box,
 * the Main Video / Subtitles / Clips groups (the clips group counts its items and scrolls from 200
 * px), the clone toggle (hidden for a clone), Cancel and 'Publish N Item(s)' ('Cloning video...' /
 * 'Publishing...' while busy). Everything offered is preselected when it opens, except clips
 * already uploaded with a provider video id.
 */

export interface PublishDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  items: readonly ExportableItem[];
  /** the video is already a clone: the clone toggle is hidden */
  isClone: boolean;
  quota: QuotaUsage | null;
  cloning: boolean;
  exporting: boolean;
  cloneOn: boolean;
  onCloneChange: (on: boolean) => void;
  /** the selected item keys (`${type}:${id}`) */
  onConfirm: (selected: Set<string>) => void;
}

export function PublishDialog(props: PublishDialogProps) {
  const busy = props.cloning || props.exporting;
  // opened by the 'Publish changes' button, not a Radix trigger: focus goes back to it on close
  const focus = useRestoreFocus();
  const guard = (event: Event) => {
    if (busy) event.preventDefault();
  };
  return (
    <Dialog.Root
      open={props.open}
      onOpenChange={(next) => {
        if (next || !busy) props.onOpenChange(next);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="wc-pub-overlay" />
        <Dialog.Content
          className="wc-pub-dialog wc-pub-dialog--select"
          aria-busy={busy}
          onEscapeKeyDown={guard}
          onPointerDownOutside={guard}
          onInteractOutside={guard}
          {...focus}
        >
          <PublishForm {...props} busy={busy} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The dialog's body; mounted on every opening, so the selection starts preselected again (all but uploaded clips). */
function PublishForm({
  items,
  isClone,
  quota,
  cloning,
  exporting,
  cloneOn,
  onCloneChange,
  onConfirm,
  busy,
}: PublishDialogProps & { busy: boolean }) {
  const [selected, setSelected] = useState<Set<string>>(() => initialSelection(items));
  const chosen = selectedItems(items, selected);
  const count = chosen.length;
  const quotaState = quota ? evaluateQuota(quota) : null;
  const error = selectionError(count);
  const disabled = confirmDisabled({ count, quotaExceeded: quotaState?.exceeded ?? false, exporting, cloning });
  const quotaTitleId = useId();

  const groups: Array<{ type: ExportableItemType; title: string }> = [
    { type: 'main_video', title: MAIN_VIDEO_GROUP },
    { type: 'vtt', title: SUBTITLES_GROUP },
    { type: 'clip', title: CLIPS_GROUP },
  ];

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!disabled) onConfirm(new Set(chosen.map(itemKey)));
      }}
    >
      <Dialog.Title className="wc-pub-dialog__title">{PUBLISH_DIALOG_TITLE}</Dialog.Title>
      <Dialog.Description className="wc-pub-dialog__description">
        Choose what to publish to {PROVIDER_NAME}.
      </Dialog.Description>

      {quota ? (
        <section className="wc-pub-quota" aria-labelledby={quotaTitleId}>
          <h3 className="wc-pub-quota__title" id={quotaTitleId}>
            Export quota
          </h3>
          <ul className="wc-pub-quota__lines">
            {quotaDisplay(quota).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {quotaState?.exceeded ? (
        <div className="wc-pub-notice wc-pub-notice--error" role="alert">
          <p>{QUOTA_EXCEEDED_MESSAGE}</p>
        </div>
      ) : quotaState?.warning ? (
        <div className="wc-pub-notice wc-pub-notice--warning" role="status">
          <p>{QUOTA_WARNING_MESSAGE}</p>
        </div>
      ) : null}

      {items.length > 0 ? (
        <SelectAll
          checked={allSelected(items, selected)}
          mixed={count > 0 && count < items.length}
          disabled={busy}
          onToggle={() => setSelected((s) => toggleAll(items, s))}
        />
      ) : (
        <p className="wc-muted">There are no changes to publish.</p>
      )}

      {groups.map(({ type, title }) => {
        const groupItems = items.filter((i) => i.type === type);
        if (groupItems.length === 0) return null;
        return (
          <ItemGroup
            key={type}
            title={title}
            count={type === 'clip' ? groupItems.length : null}
            scroll={type === 'clip'}
            items={groupItems}
            selected={selected}
            disabled={busy}
            onToggle={(item) => setSelected((s) => toggleItem(s, item))}
          />
        );
      })}

      {error ? (
        <div className="wc-pub-notice wc-pub-notice--error" role="alert">
          <p>{error}</p>
        </div>
      ) : null}

      {cloneToggleVisible({ providerIsClone: isClone }) ? (
        <label className="wc-pub-switch">
          <span>{CLONE_TOGGLE_LABEL}</span>
          <input type="checkbox" role="switch" checked={cloneOn} disabled={busy} onChange={(e) => onCloneChange(e.currentTarget.checked)} />
        </label>
      ) : null}

      <div className="wc-pub-dialog__actions">
        <Dialog.Close asChild>
          <button type="button" className="wc-button" disabled={busy}>
            {CANCEL_LABEL}
          </button>
        </Dialog.Close>
        <button type="submit" className="wc-button wc-button--primary" disabled={disabled} aria-live="polite">
          {confirmLabel({ count, cloning, exporting })}
        </button>
      </div>
    </form>
  );
}

function SelectAll({ checked, mixed, disabled, onToggle }: { checked: boolean; mixed: boolean; disabled: boolean; onToggle: () => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <label className="wc-pub-check wc-pub-select-all">
      <input ref={ref} type="checkbox" checked={checked} disabled={disabled} onChange={onToggle} />
      <span>Select all</span>
    </label>
  );
}

function ItemGroup({
  title,
  count,
  scroll,
  items,
  selected,
  disabled,
  onToggle,
}: {
  title: string;
  count: number | null;
  scroll: boolean;
  items: readonly ExportableItem[];
  selected: ReadonlySet<string>;
  disabled: boolean;
  onToggle: (item: ExportableItem) => void;
}) {
  const baseId = useId();
  return (
    <fieldset className="wc-pub-group">
      <legend className="wc-pub-group__legend">
        {title}
        {count !== null ? (
          <span className="wc-pub-group__count">{count}</span>
        ) : null}
      </legend>
      <ul className={`wc-pub-group__list${scroll ? ' wc-pub-group__list--clips' : ''}`}>
        {items.map((item, index) => {
          const key = itemKey(item);
          const nameId = `${baseId}-name-${index}`;
          const descriptionId = `${baseId}-description-${index}`;
          return (
            <li key={key} className="wc-pub-item">
              <label className="wc-pub-check">
                <input
                  type="checkbox"
                  checked={selected.has(key)}
                  disabled={disabled}
                  onChange={() => onToggle(item)}
                  aria-labelledby={nameId}
                  aria-describedby={descriptionId}
                />
                <span className="wc-pub-check__text">
                  <span className="wc-pub-check__name" id={nameId}>
                    {item.name}
                  </span>
                  <span className="wc-pub-check__description" id={descriptionId}>
                    {item.description}
                  </span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
