/** What Tab can reach inside a container, in document order. */
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

export function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.closest('[hidden], [inert]'));
}

/**
 * Tab inside a modal panel wraps around: from the last stop to the first, Shift+Tab from the first
 * (or from the panel itself) to the last. Null when the browser's own move stays inside.
 */
export function trapTarget(stops: readonly HTMLElement[], current: Element | null, backwards: boolean, panel: HTMLElement): HTMLElement | null {
  if (stops.length === 0) return panel;
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  const inside = current !== null && panel.contains(current);
  if (!inside) return backwards ? last : first;
  if (backwards && (current === first || current === panel)) return last;
  if (!backwards && current === last) return first;
  return null;
}
