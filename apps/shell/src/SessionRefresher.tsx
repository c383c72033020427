import { useEffect } from 'react';
import { refreshSessionUsage, startGatewaySessionRefresh, startTokenRefresh, useSession } from '@wordcut/ui';
import type { TokenRefreshOptions } from '@wordcut/ui';

/**
 * Keeps the provider session token fresh for the whole page (every
 * 10 minutes, a silent retry 30 s after a failure). The shell hosts it because the token is the
 * page's, not one remote's: it starts once a token exists (the editor stores it from `?token=`),
 * keeps running across refreshed tokens, and stops when the session is cleared or on unmount.
 * For each provider session (the page's first, a reload's, a clone's) it also asks the server
 * for the export usage once: the token's snapshot may predate exports made since.
 */
export function SessionRefresher(options: TokenRefreshOptions) {
  const session = useSession();
  const hasToken = session.token !== null;
  const sessionKey = hasToken ? (session.sessionId ?? '') : null;
  const { intervalMs, retryMs, fetchImpl } = options;
  useEffect(() => {
    if (sessionKey === null) return;
    void refreshSessionUsage(fetchImpl);
  }, [sessionKey, fetchImpl]);
  useEffect(() => {
    if (!hasToken) return;
    return startTokenRefresh({ intervalMs, retryMs, fetchImpl });
  }, [hasToken, intervalMs, retryMs, fetchImpl]);
  // the upload form's WordCut session (when there is one) is extended on the same cadence
  useEffect(() => startGatewaySessionRefresh(intervalMs, fetchImpl), [intervalMs, fetchImpl]);
  return null;
}
