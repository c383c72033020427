import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** the buttons row */
  actions: ReactNode;
}

/**
 * A modal on the native <dialog>: the browser keeps focus inside, Escape closes it, and focus goes
 * back to what had it before (the row's delete button, the bulk bar).
 */
export function Dialog({ open, title, onClose, children, actions }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const before = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal?.();
    // a destructive dialog opens on its safe choice
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (dialog.open) dialog.close?.();
      before?.focus?.();
    };
  }, [open]);
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className="wc-an-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={`${id}-title`} className="wc-an-dialog__title">
        {title}
      </h2>
      {children}
      <div className="wc-an-dialog__actions">{actions}</div>
    </dialog>
  );
}
