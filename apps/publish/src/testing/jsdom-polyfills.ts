/**
 * Node globals that jsdom does not provide but react-router needs, and the layout observers Radix
 * tooltips use. Import this first in a jsdom spec. (Test-only; excluded from the app's tsconfig.)
 */
import { TextDecoder, TextEncoder } from 'node:util';
import { webcrypto } from 'node:crypto';

Object.assign(globalThis, { TextDecoder, TextEncoder });
if (!globalThis.crypto?.getRandomValues) Object.assign(globalThis, { crypto: webcrypto });
if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe(): void {
      // jsdom lays nothing out: there is nothing to observe
    }
    unobserve(): void {
      // nothing observed
    }
    disconnect(): void {
      // nothing observed
    }
  } as unknown as typeof ResizeObserver;
}
