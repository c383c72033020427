import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { describeError, toast } from '@wordcut/ui';
import { editorRoute, openProviderSession } from '../shared/api';
import { readTokenParam, setSessionToken } from '../shared/sessionToken';
import { SESSION_FAILED_TITLE } from './EntryPage';

export type ProviderSessionState =
  | { phase: 'idle' }
  | { phase: 'loading' }
  | { phase: 'failed'; token: string; message: string };

/**
 * Entry by query string: a `?token=` is stored, the session is opened with
 * it as bearer, and the editor moves (replacing the history entry) to the session's video
 * with the query string gone. On failure the query string goes too, a toast and an error
 * state remain; `retry` opens the session again with the same token.
 */
export function useProviderSession(basePath: string): { state: ProviderSessionState; retry: () => void } {
  const location = useLocation();
  const navigate = useNavigate();
  const tokenInUrl = readTokenParam(location.search);
  const [state, setState] = useState<ProviderSessionState>({ phase: 'idle' });
  /** the token whose session was started, so StrictMode's second effect run does not POST twice */
  const started = useRef<string | null>(null);
  const pathname = location.pathname;

  const open = useCallback(
    (token: string, clearQueryFrom: string | null) => {
      setState({ phase: 'loading' });
      openProviderSession(token).then(
        (session) => {
          setState({ phase: 'idle' });
          navigate(editorRoute(basePath, session.video.id), { replace: true });
        },
        (error: unknown) => {
          const message = describeError(error);
          toast({ title: SESSION_FAILED_TITLE, description: message, variant: 'destructive' });
          setState({ phase: 'failed', token, message });
          if (clearQueryFrom !== null) navigate({ pathname: clearQueryFrom, search: '' }, { replace: true });
        },
      );
    },
    [basePath, navigate],
  );

  useEffect(() => {
    if (!tokenInUrl || started.current === tokenInUrl) return;
    started.current = tokenInUrl;
    setSessionToken(tokenInUrl);
    open(tokenInUrl, pathname);
  }, [tokenInUrl, pathname, open]);

  const retry = useCallback(() => {
    if (state.phase === 'failed') open(state.token, null);
  }, [state, open]);

  // Before the effect runs, a token in the address already means "loading".
  const visible: ProviderSessionState = tokenInUrl && state.phase === 'idle' ? { phase: 'loading' } : state;
  return { state: visible, retry };
}
