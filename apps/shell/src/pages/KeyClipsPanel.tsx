import { useEffect, useRef } from 'react';
import { RemoteSlot } from '../RemoteSlot';
import { focusableIn, trapTarget } from './focusTrap';

/**
 * The full-screen KeyClips panel: the shell owns the frame (dialog semantics,
 * focus kept inside while open and returned to the opener, Escape), the keyclips remote owns the content and its own close button.
 */
export function KeyClipsPanel({ onClose }: { onClose: () => void }) {
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panelRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        onClose();
        return;
      }
      // a modal panel: Tab cycles inside it
      const panel = panelRef.current;
      if (event.key !== 'Tab' || !panel) return;
      const target = trapTarget(focusableIn(panel), document.activeElement, event.shiftKey, panel);
      if (target) {
        event.preventDefault();
        target.focus();
      }
    };
    // focus that lands outside (a click on the backdrop, a script) comes back; toasts keep theirs
    const onFocusIn = (event: FocusEvent) => {
      const panel = panelRef.current;
      const target = event.target as Element | null;
      if (!panel || !target || panel.contains(target) || target.closest('.wc-toast-viewport, .wc-tooltip')) return;
      panel.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
      if (opener?.isConnected) opener.focus();
    };
  }, [onClose]);

  return (
    <div className="wc-panel-layer">
      <div
        ref={panelRef}
        className="wc-panel"
        role="dialog"
        aria-modal="true"
        aria-label="KeyClips"
        tabIndex={-1}
        data-testid="keyclips-panel"
      >
        <RemoteSlot
          name="keyclips"
          basePath="/"
          fallbackActions={
            <button type="button" className="wc-button" onClick={onClose}>
              Close
            </button>
          }
        />
      </div>
    </div>
  );
}
