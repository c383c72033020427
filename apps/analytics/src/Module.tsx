import { useQuery } from '@tanstack/react-query';
import { describeError } from '@wordcut/ui';
import type { RemoteProps } from '@wordcut/ui';
import { ANALYTICS_KEYS, fetchStatus } from './api';
import { Dashboard } from './Dashboard';
import { LoginForm } from './LoginForm';
import { goHome } from './navigation';
import { AnalyticsStyles } from './styles';

export { ANALYTICS_KEYS } from './api';

/**
 * The operator dashboard: the session status decides between the password login and the
 * dashboard (the session lives in an httpOnly cookie the page cannot read).
 */
export default function AnalyticsModule(_props: RemoteProps) {
  const status = useQuery({ queryKey: ANALYTICS_KEYS.status, queryFn: fetchStatus, retry: 1 });
  let body;
  if (status.isPending) {
    body = (
      <div className="wc-an" role="status" data-testid="analytics-remote">
        <p className="wc-muted">Loading analytics...</p>
      </div>
    );
  } else if (status.isError) {
    body = (
      <div className="wc-an" data-testid="analytics-remote">
        <div className="wc-card wc-an-state" role="alert">
          <h1 className="wc-an-state__title">Error Loading Analytics</h1>
          <p className="wc-muted">{describeError(status.error)}</p>
          <button type="button" className="wc-button" onClick={() => void status.refetch()}>
            Retry
          </button>
        </div>
      </div>
    );
  } else if (!status.data.authenticated) {
    body = <LoginForm />;
  } else {
    body = <Dashboard onLoggedOut={goHome} />;
  }
  return (
    <>
      <AnalyticsStyles />
      {body}
    </>
  );
}
