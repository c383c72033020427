import { useMemo, useRef } from 'react';

export interface RestoreFocusHandlers {
  onOpenAutoFocus: (event: Event) => void;
  onCloseAutoFocus: (event: Event) => void;
}

/**
 * For a Radix dialog opened by state rather than by its own Trigger: focus goes back, on close, to
 * whatever had it when the dialog opened (the button or menu item that opened it). Radix returns
 * focus only to a Trigger it knows; without one it leaves focus on the body and a keyboard user
 * starts again from the top of the page. Spread the handlers on the dialog's Content. When the
 * opener is gone by then (a toolbar that hid itself), `fallback` names where focus goes instead;
 * without one (or when it finds nothing) Radix keeps its default.
 */
export function useRestoreFocus(fallback?: () => HTMLElement | null): RestoreFocusHandlers {
  const opener = useRef<HTMLElement | null>(null);
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;
  return useMemo(
    () => ({
      // runs as the content mounts, before Radix moves focus into it
      onOpenAutoFocus: () => {
        const active = typeof document === 'undefined' ? null : document.activeElement;
        opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      },
      onCloseAutoFocus: (event: Event) => {
        const target = opener.current?.isConnected ? opener.current : (fallbackRef.current?.() ?? null);
        opener.current = null;
        if (target?.isConnected) {
          event.preventDefault();
          target.focus();
        }
      },
    }),
    [],
  );
}
