/** @jest-environment jsdom */
import './testing/jsdom-polyfills';
import { apiJson } from './api';
import {
  GATEWAY_SESSION_KEY,
  clearGatewaySession,
  currentBearerToken,
  ensureGatewaySession,
  gatewaySessionToken,
  refreshGatewaySession,
  startGatewaySessionRefresh,
} from './gatewaySession';
import { sessionStore } from './session';
import { reply } from './testing/fixtures';

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();
const session = (token: string, expiresAt = inAnHour()) => ({ token, userId: 'wordcut:u1', expiresAt });
const answer = (status: number, body: unknown) => Promise.resolve(reply(status, body));

let fetchMock: jest.Mock<Promise<Response>, [string, RequestInit?]>;
beforeEach(() => {
  clearGatewaySession();
  sessionStore.clear();
  fetchMock = jest.fn();
  global.fetch = fetchMock as unknown as typeof fetch;
});

describe('gateway session', () => {
  it('starts one session for concurrent callers and keeps it in localStorage', async () => {
    fetchMock.mockImplementation(() => answer(201, session('t1')));
    const [a, b] = await Promise.all([ensureGatewaySession(), ensureGatewaySession()]);
    expect([a, b]).toEqual(['t1', 't1']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/auth/session');
    expect(JSON.parse(localStorage.getItem(GATEWAY_SESSION_KEY)!)).toMatchObject({ token: 't1' });
    await ensureGatewaySession();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('replaces a session that has ended or is about to, and ignores a damaged stored one', async () => {
    localStorage.setItem(GATEWAY_SESSION_KEY, JSON.stringify(session('old', new Date(Date.now() + 10_000).toISOString())));
    expect(gatewaySessionToken()).toBeNull();
    localStorage.setItem(GATEWAY_SESSION_KEY, '{not json');
    expect(gatewaySessionToken()).toBeNull();
    fetchMock.mockImplementation(() => answer(201, session('fresh')));
    expect(await ensureGatewaySession()).toBe('fresh');
  });

  it("rejects with the server's message when no session can be started", async () => {
    fetchMock.mockImplementation(() => answer(403, { message: 'Uploading is disabled here: open your video from the provider instead.' }));
    await expect(ensureGatewaySession()).rejects.toThrow('Uploading is disabled here');
    expect(gatewaySessionToken()).toBeNull();
  });

  it('refreshes with the current token as bearer, and reports a refusal without losing the session', async () => {
    fetchMock.mockImplementation(() => answer(201, session('t1')));
    await ensureGatewaySession();
    fetchMock.mockImplementation(() => answer(200, session('t2')));
    expect(await refreshGatewaySession()).toBe(true);
    expect(fetchMock.mock.calls[1]![0]).toBe('/api/auth/session/refresh');
    expect(new Headers(fetchMock.mock.calls[1]![1]!.headers).get('authorization')).toBe('Bearer t1');
    expect(gatewaySessionToken()).toBe('t2');
    fetchMock.mockImplementation(() => answer(401, { message: 'expired' }));
    expect(await refreshGatewaySession()).toBe(false);
    expect(gatewaySessionToken()).toBe('t2');
  });

  it('refreshes on a timer until stopped', async () => {
    jest.useFakeTimers();
    try {
      localStorage.setItem(GATEWAY_SESSION_KEY, JSON.stringify(session('t1')));
      fetchMock.mockImplementation(() => answer(200, session('t2')));
      const stop = startGatewaySessionRefresh(1000);
      await jest.advanceTimersByTimeAsync(1000);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      stop();
      await jest.advanceTimersByTimeAsync(5000);
      expect(fetchMock).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('the identity of API calls', () => {
  it('is the provider session in the tab, else the gateway session, else none', async () => {
    fetchMock.mockImplementation(() => answer(200, {}));
    await apiJson('/api/videos/1');
    expect(new Headers(fetchMock.mock.calls[0]![1]!.headers).has('authorization')).toBe(false);

    localStorage.setItem(GATEWAY_SESSION_KEY, JSON.stringify(session('gw')));
    await apiJson('/api/videos/1');
    expect(new Headers(fetchMock.mock.calls[1]![1]!.headers).get('authorization')).toBe('Bearer gw');

    sessionStore.setToken('provider.token.value');
    expect(currentBearerToken()).toBe('provider.token.value');
    await apiJson('/api/videos/1');
    expect(new Headers(fetchMock.mock.calls[2]![1]!.headers).get('authorization')).toBe('Bearer provider.token.value');

    // a call that names its own identity keeps it
    await apiJson('/api/videos/1', { headers: { authorization: 'Bearer mine' } });
    expect(new Headers(fetchMock.mock.calls[3]![1]!.headers).get('authorization')).toBe('Bearer mine');
  });
});
