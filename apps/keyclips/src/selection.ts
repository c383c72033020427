/** The selected moment after the list (re)loads: the same one while it is listed, else the first, else none. */
export function selectionAfterLoad(current: string | null, moments: readonly { id: string }[]): string | null {
  if (current !== null && moments.some((m) => m.id === current)) return current;
  return moments[0]?.id ?? null;
}
