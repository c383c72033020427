/** @jest-environment jsdom */
import '@testing-library/jest-dom';
import { renderHook } from '@testing-library/react';
import { useRestoreFocus } from './restoreFocus';

function button(name: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.textContent = name;
  document.body.append(b);
  return b;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('useRestoreFocus (dialogs opened by state, not by a Radix trigger)', () => {
  it('gives focus back to what had it when the dialog opened, and takes over from the default', () => {
    const opener = button('Remove Filler Words');
    const inside = button('Cancel');
    const { result } = renderHook(() => useRestoreFocus());
    opener.focus();
    result.current.onOpenAutoFocus(new Event('focusScope.autoFocusOnMount'));
    inside.focus(); // the dialog moved focus in
    const close = new Event('focusScope.autoFocusOnUnmount', { cancelable: true });
    result.current.onCloseAutoFocus(close);
    expect(opener).toHaveFocus();
    expect(close.defaultPrevented).toBe(true);
  });

  it('leaves the default alone when the opener is gone, or nothing but the page had focus', () => {
    const opener = button('Create Clip');
    const { result } = renderHook(() => useRestoreFocus());
    opener.focus();
    result.current.onOpenAutoFocus(new Event('open'));
    opener.remove(); // the toolbar that held it hid itself
    const close = new Event('close', { cancelable: true });
    result.current.onCloseAutoFocus(close);
    expect(close.defaultPrevented).toBe(false);

    (document.activeElement as HTMLElement | null)?.blur();
    result.current.onOpenAutoFocus(new Event('open'));
    const again = new Event('close', { cancelable: true });
    result.current.onCloseAutoFocus(again);
    expect(again.defaultPrevented).toBe(false);
  });

  it('when the opener is gone, focus goes where the fallback says', () => {
    const opener = button('Create Clip');
    const word = button('welcome');
    const { result } = renderHook(() => useRestoreFocus(() => word));
    opener.focus();
    result.current.onOpenAutoFocus(new Event('open'));
    opener.remove();
    const close = new Event('close', { cancelable: true });
    result.current.onCloseAutoFocus(close);
    expect(word).toHaveFocus();
    expect(close.defaultPrevented).toBe(true);
  });

  it('keeps the same handlers across renders (stable props for the dialog)', () => {
    const { result, rerender } = renderHook(() => useRestoreFocus());
    const first = result.current;
    rerender();
    expect(result.current).toBe(first);
  });
});
