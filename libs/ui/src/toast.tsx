import * as ToastPrimitive from '@radix-ui/react-toast';
import { createStore, useStoreValue } from './store';
import type { Store } from './store';

/**
 * Toasts: at most one toast is visible at a time, shown for 5000 ms by default, swiped away
 * to the right past a threshold of 50 px, viewport hotkey F8.
 *
 * `toast()` writes to a module-level store, so any code (a remote, a mutation callback)
 * can raise a toast without a React context. The store must be one per page: @wordcut/ui
 * is shared as a Module Federation singleton, and the store is additionally anchored on
 * `globalThis` so that even a second copy of this module would talk to the same store.
 */

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD = 50;

export type ToastVariant = 'default' | 'destructive' | 'warning';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Overrides the provider's 5000 ms for this toast. */
  duration?: number;
  /** A button in the toast (e.g. 'Refresh Page'); `altText` tells screen readers how else to do it. */
  action?: { label: string; altText: string; onClick: () => void };
}

export interface ToastItem extends ToastInput {
  id: string;
  variant: ToastVariant;
  open: boolean;
}

export interface ToastHandle {
  id: string;
  dismiss: () => void;
}

interface ToastStore {
  items: Store<readonly ToastItem[]>;
  counter: number;
}

const STORE_KEY = Symbol.for('wordcut.ui.toast-store');

function store(): ToastStore {
  const g = globalThis as typeof globalThis & { [STORE_KEY]?: ToastStore };
  let s = g[STORE_KEY];
  if (!s) {
    s = { items: createStore<readonly ToastItem[]>([]), counter: 0 };
    g[STORE_KEY] = s;
  }
  return s;
}

/** Shows a toast; a new toast replaces the visible one (TOAST_LIMIT = 1). */
export function toast(input: ToastInput): ToastHandle {
  const s = store();
  s.counter = (s.counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = `toast-${s.counter}`;
  const item: ToastItem = { ...input, id, variant: input.variant ?? 'default', open: true };
  s.items.set([item, ...s.items.get()].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

/** Removes one toast, or all toasts when no id is given. */
export function dismissToast(id?: string): void {
  const items = store().items;
  items.set(id === undefined ? [] : items.get().filter((t) => t.id !== id));
}

export function getToasts(): readonly ToastItem[] {
  return store().items.get();
}

/** Calls `listener` after every change of the toasts; returns the unsubscribe function. */
export function subscribeToToasts(listener: () => void): () => void {
  return store().items.subscribe(listener);
}

/** The current toasts (at most one). */
export function useToasts(): readonly ToastItem[] {
  return useStoreValue(store().items, (items) => items);
}

/**
 * The toast area: Radix provider, the visible toast and the viewport (F8 focuses it).
 * Rendered once, by the shell.
 */
export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD}
      label="Notification"
    >
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          {...(t.duration !== undefined ? { duration: t.duration } : {})}
          type={t.variant === 'destructive' ? 'foreground' : 'background'}
          className={`wc-toast wc-toast--${t.variant}`}
          data-variant={t.variant}
        >
          <div className="wc-toast__text">
            <ToastPrimitive.Title className="wc-toast__title">{t.title}</ToastPrimitive.Title>
            {t.description ? (
              <ToastPrimitive.Description className="wc-toast__description">{t.description}</ToastPrimitive.Description>
            ) : null}
          </div>
          {t.action ? (
            <ToastPrimitive.Action className="wc-button wc-button--small wc-toast__action" altText={t.action.altText} onClick={t.action.onClick}>
              {t.action.label}
            </ToastPrimitive.Action>
          ) : null}
          <ToastPrimitive.Close className="wc-toast__close" aria-label="Close">
            <span aria-hidden="true">×</span>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="wc-toast-viewport" hotkey={['F8']} />
    </ToastPrimitive.Provider>
  );
}
