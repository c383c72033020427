import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, describeError, isApiError } from '@wordcut/ui';
import type { RemoteProps } from '@wordcut/ui';

/** POST /api/analytics/login. */
export const ANALYTICS_LOGIN_PATH = '/api/analytics/login';

/**
 * The operator dashboard's entry: a password login screen. The dashboard behind
 * it comes with the analytics service.
 */
export default function AnalyticsModule(_props: RemoteProps) {
  const id = useId();
  const [password, setPassword] = useState('');

  const login = useMutation({
    mutationFn: (pwd: string) => apiFetch(ANALYTICS_LOGIN_PATH, { method: 'POST', json: { password: pwd } }),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!password || login.isPending) return;
    login.mutate(password);
  };

  const errorText = login.isError
    ? isApiError(login.error) && login.error.status === 401
      ? 'Access denied: Incorrect password'
      : describeError(login.error)
    : null;

  return (
    <div className="wc-login" data-testid="analytics-remote">
      <form className="wc-card wc-login__card" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`} className="wc-card__title">
          Analytics Dashboard
        </h1>
        <p className="wc-muted">Operators only. Enter the dashboard password to continue.</p>
        <div className="wc-field">
          <label htmlFor={`${id}-password`}>Password</label>
          <input
            id={`${id}-password`}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              if (login.isError) login.reset();
            }}
            aria-invalid={errorText ? true : undefined}
            aria-describedby={errorText ? `${id}-error` : undefined}
          />
        </div>
        {errorText ? (
          <p id={`${id}-error`} className="wc-error-text" role="alert">
            {errorText}
          </p>
        ) : null}
        {login.isSuccess ? (
          <p className="wc-success-text" role="status">
            Signed in.
          </p>
        ) : null}
        <button type="submit" className="wc-button wc-button--primary wc-button--block" disabled={!password || login.isPending}>
          {login.isPending ? 'Signing in…' : 'Login'}
        </button>
      </form>
    </div>
  );
}
