import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OPERATOR_ACCESS_DENIED } from '@wordcut/contracts';
import { describeError, isApiError } from '@wordcut/ui';
import { ANALYTICS_KEYS, login } from './api';

/** The operator's password login; a refusal always reads 'Access denied: Incorrect password'. */
export function LoginForm() {
  const id = useId();
  const [password, setPassword] = useState('');
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (status) => {
      setPassword('');
      queryClient.setQueryData(ANALYTICS_KEYS.status, status);
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!password || mutation.isPending) return;
    mutation.mutate(password);
  };

  const errorText = mutation.isError
    ? isApiError(mutation.error) && (mutation.error.status === 401 || mutation.error.status === 429)
      ? OPERATOR_ACCESS_DENIED
      : describeError(mutation.error)
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
            required
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              if (mutation.isError) mutation.reset();
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
        <button type="submit" className="wc-button wc-button--primary wc-button--block" disabled={!password || mutation.isPending}>
          {mutation.isPending ? 'Signing in…' : 'Login'}
        </button>
      </form>
    </div>
  );
}
