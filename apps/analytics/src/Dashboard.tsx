import { useMutation, useQueryClient } from '@tanstack/react-query';
import { describeError, toast } from '@wordcut/ui';
import { ANALYTICS_KEYS, logout } from './api';
import { ErrorLogs } from './ErrorLogs';
import { FailedWebhooks } from './FailedWebhooks';
import { Figures } from './figures/Figures';
import { VideoManagement } from './VideoManagement';

interface DashboardProps {
  /** where Logout leads (the home page) */
  onLoggedOut: () => void;
}

/**
 * The operator dashboard, top to bottom: header with Logout; the figures (feature status, queue
 * cards, system, queue configuration, media work queue, media workers, provider publishing,
 * analytics events); Video Management; Error Logs; Failed Webhooks.
 */
export function Dashboard({ onLoggedOut }: DashboardProps) {
  const queryClient = useQueryClient();
  const signOut = useMutation({
    mutationFn: logout,
    onSuccess: (status) => {
      // everything the operator saw leaves with the session
      queryClient.removeQueries({ queryKey: ANALYTICS_KEYS.all, predicate: (q) => q.queryKey[1] !== ANALYTICS_KEYS.status[1] });
      queryClient.setQueryData(ANALYTICS_KEYS.status, status);
      onLoggedOut();
    },
    onError: (err) => toast({ title: 'Logout failed', description: describeError(err), variant: 'destructive' }),
  });
  return (
    <div className="wc-an" data-testid="analytics-remote">
      <header className="wc-an-header">
        <div>
          <h1 className="wc-an-header__title">Analytics Dashboard</h1>
          <p className="wc-muted wc-an-header__subtitle">Operate WordCut: queues, workers, publishing, videos and errors.</p>
        </div>
        <button type="button" className="wc-button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          {signOut.isPending ? 'Logging out...' : 'Logout'}
        </button>
      </header>
      <Figures />
      <VideoManagement />
      <ErrorLogs />
      <FailedWebhooks />
    </div>
  );
}
