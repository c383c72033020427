/** @jest-environment jsdom */
import { sessionStore } from '@wordcut/ui';
import { SESSION_TOKEN_KEY, bearerHeaders, clearSessionToken, getSessionToken, readTokenParam, setSessionToken } from './sessionToken';

afterEach(() => clearSessionToken());

it('reads ?token= from a query string', () => {
  expect(readTokenParam('?token=abc.def.ghi')).toBe('abc.def.ghi');
  expect(readTokenParam('?panel=keyclips&token=%20t1%20')).toBe('t1');
  expect(readTokenParam('?token=')).toBeNull();
  expect(readTokenParam('')).toBeNull();
});

it("stores the token in sessionStorage under 'wordcut_session_token'", () => {
  expect(getSessionToken()).toBeNull();
  setSessionToken('jwt-1');
  expect(sessionStorage.getItem(SESSION_TOKEN_KEY)).toBe('jwt-1');
  expect(SESSION_TOKEN_KEY).toBe('wordcut_session_token');
  expect(getSessionToken()).toBe('jwt-1');
  expect(bearerHeaders()).toEqual({ authorization: 'Bearer jwt-1' });
  clearSessionToken();
  expect(getSessionToken()).toBeNull();
  expect(bearerHeaders()).toEqual({});
});

it('keeps the token in memory when sessionStorage refuses it', () => {
  const spy = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
    throw new DOMException('quota', 'QuotaExceededError');
  });
  try {
    setSessionToken('jwt-2');
    expect(sessionStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
    expect(getSessionToken()).toBe('jwt-2');
  } finally {
    spy.mockRestore();
  }
});

it('refuses an empty token', () => {
  expect(() => setSessionToken('  ')).toThrow('the token is empty');
});

it("is the page's one session token: the shared store (@wordcut/ui) sees it and its refreshes", () => {
  setSessionToken(' jwt-3 ');
  expect(sessionStore.get().token).toBe('jwt-3');
  sessionStore.setToken('jwt-4'); // e.g. the shell's refresh timer
  expect(getSessionToken()).toBe('jwt-4');
  expect(bearerHeaders()).toEqual({ authorization: 'Bearer jwt-4' });
  expect(sessionStorage.getItem(SESSION_TOKEN_KEY)).toBe('jwt-4');
  clearSessionToken();
  expect(sessionStore.get().token).toBeNull();
});
