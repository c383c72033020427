import { SESSION_TOKEN_KEY as SHARED_SESSION_TOKEN_KEY, bearerHeaders as sharedBearerHeaders, getSessionToken as sharedGetSessionToken, sessionStore } from '@wordcut/ui';

/**
 * The provider session token: the provider opens the editor with `?token=<jwt>`. The token itself
 * lives in the page's one session store (`sessionStore` of `@wordcut/ui`, a Module Federation
 * singleton), so the shell's refresh timer, the publish remote and the editor's calls all use the
 * same, latest token. These functions keep the editor's names for it.
 */

export const SESSION_TOKEN_KEY = SHARED_SESSION_TOKEN_KEY;
export const TOKEN_QUERY_PARAM = 'token';

/** The token of `?token=` in a query string (`location.search`), trimmed; null when absent or blank. */
export function readTokenParam(search: string): string | null {
  const value = new URLSearchParams(search).get(TOKEN_QUERY_PARAM);
  const token = value?.trim();
  return token ? token : null;
}

/** Starts a session with this token: kept for the tab's life (sessionStorage, else memory). */
export function setSessionToken(token: string): void {
  const trimmed = token.trim();
  if (!trimmed) throw new Error('setSessionToken: the token is empty');
  sessionStore.setToken(trimmed);
}

/** The current session token, or null when the page was not opened from a provider session. */
export function getSessionToken(): string | null {
  return sharedGetSessionToken();
}

export function clearSessionToken(): void {
  sessionStore.clear();
}

/** `Authorization: Bearer <token>` headers for the current token, or {} without one. */
export function bearerHeaders(token: string | null = getSessionToken()): Record<string, string> {
  return sharedBearerHeaders(token);
}
