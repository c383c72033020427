import type { ReactNode } from 'react';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import * as Dialog from '@radix-ui/react-dialog';
import * as Popover from '@radix-ui/react-popover';
import { useRestoreFocus } from '@wordcut/ui';

/** A confirmation dialog: focus trapped, Escape cancels. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  onConfirm,
  onCancel,
  children,
  testId,
  destructive = false,
}: {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
  testId?: string;
  destructive?: boolean;
}) {
  // opened by a button or menu item, not a Radix trigger: focus goes back to it on close
  const focus = useRestoreFocus();
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onCancel())}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="wc-dialog-overlay" />
        <AlertDialog.Content className="wc-dialog" data-testid={testId} {...focus}>
          <AlertDialog.Title className="wc-dialog__title">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="wc-dialog__text">{description}</div>
          </AlertDialog.Description>
          {children}
          <div className="wc-dialog__actions">
            <AlertDialog.Cancel className="wc-button">Cancel</AlertDialog.Cancel>
            <AlertDialog.Action
              className={`wc-button ${destructive ? 'wc-button--danger' : 'wc-button--primary'}`}
              onClick={onConfirm}
            >
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** A small 'i' button with an explanation (the info popovers of the filler and mute-similar dialogs). */
export function InfoPopover({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Popover.Root>
      <Popover.Trigger className="wc-button wc-button--icon wc-info-button" aria-label={label}>
        i
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="wc-popover wc-popover--info" sideOffset={6} collisionPadding={8}>
          {children}
          <Popover.Arrow className="wc-popover__arrow" />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** A dialog that informs or offers choices and closes with one button: focus trapped, Escape closes, focus returns. */
export function InfoDialog({ open, onOpenChange, title, description, className, testId, children }: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  const focus = useRestoreFocus();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="wc-dialog-overlay" />
        <Dialog.Content className={`wc-dialog${className ? ` ${className}` : ''}`} data-testid={testId} {...focus}>
          <Dialog.Title className="wc-dialog__title">{title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="wc-muted">{description}</div>
          </Dialog.Description>
          {children}
          <div className="wc-dialog__actions">
            <Dialog.Close className="wc-button wc-button--primary">Close</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
