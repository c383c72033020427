import { AppHeader } from './AppHeader';
import { RemoteSlot } from '../RemoteSlot';

/** The operator analytics dashboard, a remote under the shell's header. */
export function AnalyticsPage() {
  return (
    <div className="wc-app">
      <AppHeader title={<span className="wc-muted">Operator</span>} />
      <main className="wc-main" id="main">
        <RemoteSlot name="analytics" basePath="/analytics" />
      </main>
    </div>
  );
}
