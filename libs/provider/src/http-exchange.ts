/**
 * One HTTP exchange with the provider, read to the end, abandoned after a stretch without
 * progress; network failures and timeouts become transient ProviderErrors.
 */
import { aborted, ProviderError, type Answer } from './provider-error';

/** Sends requests through `fetchImpl`, each abandoned after `timeoutMs` without progress. */
export class HttpExchange {
  constructor(
    private readonly fetchImpl: typeof fetch,
    readonly timeoutMs: number,
  ) {}

  /**
   * One HTTP exchange, read to the end. The timer measures inactivity: it restarts whenever the body
   * hands over bytes, so a large chunk on a slow link is not cut while it moves.
   */
  async send(url: string, method: string, headers: Record<string, string>, body: AsyncIterable<Buffer> | null, signal?: AbortSignal): Promise<Answer> {
    if (signal?.aborted) throw aborted(signal);
    const controller = new AbortController();
    let timedOut = false;
    let over = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      // fetch may still pull body pieces after the exchange ended (an early answer, a cut)
      if (over) return;
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, this.timeoutMs);
    };
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
    try {
      const init: RequestInit & { duplex?: 'half' } = { method, headers, redirect: 'manual', signal: controller.signal };
      if (body) Object.assign(init, { body: tap(body, arm), duplex: 'half' });
      const res = await this.fetchImpl(url, init);
      arm();
      return { status: res.status, headers: res.headers, text: await res.text() };
    } catch (e) {
      if (e instanceof ProviderError) throw e;
      if (signal?.aborted) throw aborted(signal);
      if (timedOut) throw new ProviderError({ message: `The provider did not answer within ${this.timeoutMs} ms`, status: null, code: 'timeout', transient: true, cause: e });
      const cause = (e as { cause?: { message?: string; code?: string } }).cause;
      if (cause instanceof ProviderError) throw cause;
      const detail = cause?.code ?? cause?.message ?? (e as Error).message;
      throw new ProviderError({ message: `The provider could not be reached (${detail})`, status: null, code: 'network_error', transient: true, cause: e });
    } finally {
      over = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** Passes the pieces through, telling `onBytes` how many went by. */
export async function* tap(source: AsyncIterable<Buffer>, onBytes: (n: number) => void): AsyncGenerator<Buffer> {
  for await (const piece of source) {
    onBytes(piece.length);
    yield piece;
  }
}
