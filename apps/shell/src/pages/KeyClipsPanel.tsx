import { useEffect, useRef } from 'react';
import { RemoteSlot } from '../RemoteSlot';

/**
 * The full-screen KeyClips panel: the shell owns the frame (dialog semantics,
 * focus, Escape), the keyclips remote owns the content and its own close button.
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
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
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
