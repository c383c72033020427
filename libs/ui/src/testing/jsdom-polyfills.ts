/**
 * What the web apps' jsdom specs need and jsdom does not provide: the Node text codecs
 * react-router needs, Web Crypto's random values (idempotency keys), and the layout observer
 * Radix tooltips use. Import this first in a jsdom spec, before anything loads react-router.
 * (Test-only: excluded from the @wordcut/ui build and bundle.)
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
