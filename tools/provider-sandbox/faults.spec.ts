import { FaultStore } from './faults';

const url = (p: string) => new URL(p, 'http://sandbox');

describe('FaultStore', () => {
  it('hits matching requests (method and path regex) the given number of times, then is gone', () => {
    const f = new FaultStore();
    const id = f.add({ match: { method: 'put', path: '^/uploads/resumable/' }, action: { kind: 'status', status: 503 }, times: 2 });
    expect(f.take('POST', url('/uploads/resumable/x'))).toBeUndefined();
    expect(f.take('PUT', url('/uploads/s1/video'))).toBeUndefined();
    expect(f.take('PUT', url('/uploads/resumable/x'))?.id).toBe(id);
    expect(f.take('PUT', url('/uploads/resumable/y'))?.id).toBe(id);
    expect(f.take('PUT', url('/uploads/resumable/z'))).toBeUndefined();
    expect(f.list()).toEqual([]);
  });

  it('defaults to one hit and any method; matches the path with its query string too', () => {
    const f = new FaultStore();
    f.add({ match: { path: 'uploadType=resumable' }, action: { kind: 'timeout', ms: 10 } });
    expect(f.take('POST', url('/uploads/s/video'))).toBeUndefined();
    expect(f.take('POST', url('/uploads/s/video?uploadType=resumable'))?.action).toEqual({ kind: 'timeout', ms: 10 });
    expect(f.take('POST', url('/uploads/s/video?uploadType=resumable'))).toBeUndefined();
  });

  it('lets `skip` matching requests through first', () => {
    const f = new FaultStore();
    f.add({ match: { path: '^/x$' }, action: { kind: 'cut', afterBytes: 10 }, skip: 2 });
    expect([f.take('GET', url('/x')), f.take('GET', url('/x'))]).toEqual([undefined, undefined]);
    expect(f.take('GET', url('/x'))?.action).toEqual({ kind: 'cut', afterBytes: 10 });
  });

  it('refuses invalid specs with a message naming the field', () => {
    const f = new FaultStore();
    expect(() => f.add({ match: { path: '(' }, action: { kind: 'status', status: 503 } })).toThrow(/match.path is not a regular expression/);
    expect(() => f.add({ match: { path: 'x' }, action: { kind: 'status', status: 42 } })).toThrow(/action.status/);
    expect(() => f.add({ match: { path: 'x' }, action: { kind: 'explode' } } as never)).toThrow(/invalid fault/);
    expect(() => f.add({ match: { path: 'x' }, action: { kind: 'cut', afterBytes: 1 }, times: 0 })).toThrow(/times/);
  });
});
