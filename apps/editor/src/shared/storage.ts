/** localStorage, or null where it is unavailable (blocked storage): callers then keep state in memory only. */
export function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
