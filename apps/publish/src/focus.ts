import type { RefObject } from 'react';

/**
 * A dialog's onCloseAutoFocus: focus goes back to the button that opened it. These dialogs are
 * opened by state, not by a Radix Trigger, so Radix would otherwise leave focus on the body and
 * a keyboard user would start again from the top of the page. A button that is gone (the action
 * is no longer offered) leaves Radix its default.
 */
export function returnFocus(event: Event, to: RefObject<HTMLElement | null> | undefined): void {
  const target = to?.current;
  if (target?.isConnected) {
    event.preventDefault();
    target.focus();
  }
}
