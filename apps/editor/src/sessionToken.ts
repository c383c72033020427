/**
 * The provider session token (seed 002 §2 "Entry by query string"): the provider opens the
 * editor with `?token=<jwt>`; the page keeps it for the tab's life (sessionStorage) so later
 * calls that need a bearer header (publishing, jobs) can read it with {@link getSessionToken}.
 */

export const SESSION_TOKEN_KEY = 'wordcut_session_token';
export const TOKEN_QUERY_PARAM = 'token';

/** Used when sessionStorage is unavailable (blocked storage, private modes): the token lives in memory. */
let memoryToken: string | null = null;

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** The token of `?token=` in a query string (`location.search`), trimmed; null when absent or blank. */
export function readTokenParam(search: string): string | null {
  const value = new URLSearchParams(search).get(TOKEN_QUERY_PARAM);
  const token = value?.trim();
  return token ? token : null;
}

export function setSessionToken(token: string): void {
  const trimmed = token.trim();
  if (!trimmed) throw new Error('setSessionToken: the token is empty');
  memoryToken = trimmed;
  try {
    storage()?.setItem(SESSION_TOKEN_KEY, trimmed);
  } catch {
    // quota or security errors: the in-memory copy still serves this page
  }
}

/** The stored session token, or null when the page was not opened from a provider session. */
export function getSessionToken(): string | null {
  try {
    const stored = storage()?.getItem(SESSION_TOKEN_KEY);
    if (stored) return stored;
  } catch {
    // fall through to the in-memory copy
  }
  return memoryToken;
}

export function clearSessionToken(): void {
  memoryToken = null;
  try {
    storage()?.removeItem(SESSION_TOKEN_KEY);
  } catch {
    // nothing stored
  }
}

/** `Authorization: Bearer <token>` headers for the stored token, or {} without one. */
export function bearerHeaders(token: string | null = getSessionToken()): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}
