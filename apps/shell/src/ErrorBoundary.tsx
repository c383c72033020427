import { Component } from 'react';
import type { ErrorInfo, ReactNode } from 'react';

interface Props {
  children: ReactNode;
  /** When this value changes (e.g. the path), a shown error is cleared. */
  resetKey?: unknown;
}

interface State {
  error: unknown;
  hasError: boolean;
}

/** The error screen around the routed content: a render failure shows it instead of a blank page. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('[shell] unhandled error in the routed content', error, info.componentStack);
  }

  override componentDidUpdate(prev: Props): void {
    if (this.state.hasError && prev.resetKey !== this.props.resetKey) this.reset();
  }

  reset = (): void => {
    this.setState({ error: null, hasError: false });
  };

  override render(): ReactNode {
    if (!this.state.hasError) return this.props.children;
    return <ErrorScreen onReset={this.reset} />;
  }
}

export function ErrorScreen({ onReset }: { onReset: () => void }) {
  return (
    <main className="wc-screen" id="main">
      <div className="wc-screen__card" role="alert" data-testid="error-screen">
        <h1>Something went wrong</h1>
        <p>An error occurred while processing your video. This might be due to a temporary issue.</p>
        <div className="wc-actions">
          <button type="button" className="wc-button wc-button--primary" onClick={onReset}>
            Try Again
          </button>
          <button type="button" className="wc-button" onClick={() => window.location.reload()}>
            Reload Page
          </button>
        </div>
      </div>
    </main>
  );
}
