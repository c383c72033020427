import { Suspense, createContext, lazy, useContext, useMemo, useState } from 'react';
import type { ComponentType, LazyExoticComponent, ReactNode } from 'react';
import { REMOTE_LABELS } from '@wordcut/ui';
import type { RemoteName, RemoteProps } from '@wordcut/ui';
import { loadRemoteModule } from './remotes';

type RemoteComponent = LazyExoticComponent<ComponentType<RemoteProps>>;

/**
 * One lazy component per remote, kept for the page's life once it loaded so that
 * navigating back to a route does not suspend again. A failed load is not kept: the next
 * mount (or the Retry button) loads again, forcing the runtime to drop its cached failure.
 */
const loaded = new Map<RemoteName, RemoteComponent>();
const failed = new Set<RemoteName>();

interface FallbackOptions {
  variant: 'block' | 'inline';
  onRetry: () => void;
  actions?: ReactNode;
}

/** How the slot that rendered a failed remote wants its fallback to look and retry. */
const FallbackContext = createContext<FallbackOptions>({ variant: 'block', onRetry: () => undefined });

function lazyRemote(name: RemoteName, reload: boolean): RemoteComponent {
  if (reload) loaded.delete(name);
  const cached = loaded.get(name);
  if (cached) return cached;
  const component = lazy(async () => {
    try {
      const mod = await loadRemoteModule(name, { retry: failed.has(name) });
      failed.delete(name);
      return mod;
    } catch (error: unknown) {
      failed.add(name);
      loaded.delete(name);
      console.error(`[shell] the ${name} remote could not be loaded`, error);
      const Failed = () => <RemoteFallback name={name} error={error} {...useContext(FallbackContext)} />;
      return { default: Failed };
    }
  });
  loaded.set(name, component);
  return component;
}

export interface RemoteSlotProps {
  name: RemoteName;
  basePath: string;
  /** 'inline' fits a header slot; 'block' fills a page region. */
  variant?: 'block' | 'inline';
  /** Extra controls shown in the fallback (e.g. a Close button for a panel). */
  fallbackActions?: ReactNode;
}

/**
 * Renders `<name>/Module` from a federated remote. While it loads, a loading text; when it
 * cannot be loaded (manifest or entry unreachable, module throwing at load), a fallback
 * that names the missing part and keeps the rest of the shell working. Errors thrown while
 * the remote renders are not caught here: they reach the shell's error screen.
 */
export function RemoteSlot({ name, basePath, variant = 'block', fallbackActions }: RemoteSlotProps) {
  const [attempt, setAttempt] = useState(0);
  const Remote = useMemo(() => lazyRemote(name, attempt > 0), [name, attempt]);
  const fallback = useMemo<FallbackOptions>(
    () => ({ variant, actions: fallbackActions, onRetry: () => setAttempt((n) => n + 1) }),
    [variant, fallbackActions],
  );
  return (
    <FallbackContext.Provider value={fallback}>
      <Suspense fallback={<RemoteLoading name={name} variant={variant} />}>
        <Remote basePath={basePath} />
      </Suspense>
    </FallbackContext.Provider>
  );
}

function RemoteLoading({ name, variant }: { name: RemoteName; variant: 'block' | 'inline' }) {
  return (
    <div className={`wc-remote-loading wc-remote-loading--${variant}`} role="status" aria-live="polite">
      {variant === 'inline' ? <span className="wc-visually-hidden">Loading {REMOTE_LABELS[name]}…</span> : `Loading ${REMOTE_LABELS[name]}…`}
    </div>
  );
}

export function RemoteFallback({
  name,
  error,
  variant,
  onRetry,
  actions,
}: { name: RemoteName; error: unknown } & FallbackOptions) {
  const label = REMOTE_LABELS[name];
  const detail = error instanceof Error ? error.message : String(error);
  if (variant === 'inline') {
    return (
      <div role="alert" className="wc-remote-fallback wc-remote-fallback--inline" data-testid={`remote-fallback-${name}`} title={detail}>
        <span>{label} is unavailable</span>
        <button type="button" className="wc-button wc-button--small" onClick={onRetry}>
          Retry
        </button>
      </div>
    );
  }
  return (
    <section role="alert" className="wc-remote-fallback" data-testid={`remote-fallback-${name}`} aria-labelledby={`remote-fallback-${name}-title`}>
      <h2 id={`remote-fallback-${name}-title`}>{label} is unavailable</h2>
      <p>This part of WordCut could not be loaded. The rest of the app still works.</p>
      <details className="wc-remote-fallback__details">
        <summary>Technical details</summary>
        <code>{detail}</code>
      </details>
      <div className="wc-actions">
        <button type="button" className="wc-button wc-button--primary" onClick={onRetry}>
          Retry
        </button>
        {actions}
      </div>
    </section>
  );
}
