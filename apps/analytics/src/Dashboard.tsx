import { useMutation, useQueryClient } from '@tanstack/react-query';
import { describeError, toast } from '@wordcut/ui';
import { ANALYTICS_KEYS, logout } from './api';
import { VideoManagement } from './VideoManagement';

interface DashboardProps {
  /** where Logout leads (the home page) */
  onLoggedOut: () => void;
}

/** The operator dashboard: header with Logout, then its sections. */
export function Dashboard({ onLoggedOut }: DashboardProps) {
  const queryClient = useQueryClient();
  const signOut = useMutation({
    mutationFn: logout,
    onSuccess: (status) => {
      queryClient.removeQueries({ queryKey: ANALYTICS_KEYS.allVideos });
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
          <p className="wc-muted wc-an-header__subtitle">Operate WordCut: every video, with what it stores.</p>
        </div>
        <button type="button" className="wc-button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          {signOut.isPending ? 'Logging out...' : 'Logout'}
        </button>
      </header>
      <VideoManagement />
    </div>
  );
}
