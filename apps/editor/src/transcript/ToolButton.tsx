import type { ReactNode } from 'react';
import { Tooltip } from '@wordcut/ui';
import { shortcutLabel } from './shortcuts';

/** A small toolbar button whose tooltip names it and its shortcut (also in aria-keyshortcuts). */
export function ToolButton({ label, shortcut, onClick, disabled, children, testId, pressed, tooltip, iconOnly = false }: {
  label: string;
  /** a tooltip instead of the label (e.g. why the button is disabled); a disabled button with one stays focusable */
  tooltip?: string;
  /** the children are a symbol: the label names the button */
  iconOnly?: boolean;
  shortcut?: string;
  onClick: () => void;
  disabled?: boolean;
  children?: ReactNode;
  testId?: string;
  pressed?: boolean;
}) {
  return (
    <Tooltip content={tooltip ?? (shortcut ? `${label} (${shortcutLabel(shortcut)})` : label)}>
      <button
        type="button"
        className={`wc-button wc-button--small${pressed ? ' wc-button--pressed' : ''}`}
        onClick={disabled ? undefined : onClick}
        disabled={disabled && !tooltip}
        aria-disabled={disabled && tooltip ? true : undefined}
        aria-label={iconOnly ? label : undefined}
        aria-keyshortcuts={shortcut?.replace(/Ctrl\+/g, 'Control+')}
        aria-pressed={pressed}
        data-testid={testId}
      >
        {children ?? label}
      </button>
    </Tooltip>
  );
}
