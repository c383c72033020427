import { ApiError, apiFetch, apiJson, describeError, getQueryFn } from './api';
import type { QueryFunctionContext } from '@tanstack/react-query';

type FetchArgs = [input: string, init?: RequestInit];
const fetchMock = jest.fn<Promise<Response>, FetchArgs>();

beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});

function ctx(queryKey: readonly unknown[]): QueryFunctionContext {
  return { queryKey, signal: new AbortController().signal, meta: undefined } as unknown as QueryFunctionContext;
}

describe('apiFetch', () => {
  it('sends credentials and a JSON content type with a JSON body', async () => {
    fetchMock.mockResolvedValue(new Response('{"ok":true}', { status: 200 }));
    await apiFetch('/api/videos/1', { method: 'PATCH', json: { vttChanged: false } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/videos/1');
    expect(init?.credentials).toBe('include');
    expect(init?.method).toBe('PATCH');
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
    expect(init?.body).toBe('{"vttChanged":false}');
  });

  it('leaves the content type of a multipart body to the browser', async () => {
    fetchMock.mockResolvedValue(new Response('{"jobId":"probe_1"}', { status: 202 }));
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.mp4');
    await apiFetch('/api/probe-jobs', { method: 'POST', body: form });
    const init = fetchMock.mock.calls[0]![1];
    expect(new Headers(init?.headers).has('content-type')).toBe(false);
    expect(init?.body).toBe(form);
    expect(init?.credentials).toBe('include');
  });

  it('throws "<status>: <body text>" on a non-OK answer', async () => {
    fetchMock.mockResolvedValue(new Response('{"message":"nope"}', { status: 422, statusText: 'Unprocessable Entity' }));
    const err = await apiFetch('/api/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('422: {"message":"nope"}');
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).body).toEqual({ message: 'nope' });
  });

  it('uses the status text when the body is empty', async () => {
    fetchMock.mockResolvedValue(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(apiFetch('/api/x')).rejects.toThrow(/^503: Service Unavailable$/);
  });

  it('apiJson parses the answer', async () => {
    fetchMock.mockResolvedValue(new Response('{"jobId":"probe_1"}', { status: 202 }));
    await expect(apiJson<{ jobId: string }>('/api/probe-jobs', { method: 'POST' })).resolves.toEqual({ jobId: 'probe_1' });
  });
});

describe('getQueryFn', () => {
  it('GETs the query key parts joined with "/" with credentials', async () => {
    fetchMock.mockResolvedValue(new Response('{"status":"processing"}', { status: 200 }));
    const data = await getQueryFn()(ctx(['/api/jobs', 'probe_1', 'status']));
    expect(data).toEqual({ status: 'processing' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/jobs/probe_1/status');
    expect(init?.credentials).toBe('include');
    expect(init?.method ?? 'GET').toBe('GET');
  });

  it('throws on 401 by default', async () => {
    fetchMock.mockResolvedValue(new Response('', { status: 401, statusText: 'Unauthorized' }));
    await expect(getQueryFn()(ctx(['/api/analytics/status']))).rejects.toThrow('401: Unauthorized');
  });

  it("returns null on 401 with on401: 'returnNull'", async () => {
    fetchMock.mockResolvedValue(new Response('{"message":"no"}', { status: 401 }));
    await expect(getQueryFn({ on401: 'returnNull' })(ctx(['/api/analytics/status']))).resolves.toBeNull();
  });

  it("still throws other errors with on401: 'returnNull'", async () => {
    fetchMock.mockResolvedValue(new Response('boom', { status: 500 }));
    await expect(getQueryFn({ on401: 'returnNull' })(ctx(['/api/x']))).rejects.toThrow('500: boom');
  });
});

describe('describeError', () => {
  it("prefers the server's JSON message, then the error message", () => {
    expect(describeError(new ApiError(502, 'Bad Gateway', '{"statusCode":502,"code":"SERVICE_UNAVAILABLE","message":"The API is unavailable"}'))).toBe(
      'The API is unavailable',
    );
    expect(describeError(new ApiError(500, 'Internal Server Error', 'oops'))).toBe('500: oops');
    expect(describeError(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(describeError('x')).toBe('x');
  });
});
