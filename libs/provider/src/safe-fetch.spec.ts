import type { LookupAddress } from 'node:dns';
import { pinnedLookup, refuseIfPrivate, SafeFetcher, UnsafeUrlError } from './safe-fetch';

describe('pinnedLookup', () => {
  const lookup = pinnedLookup([
    { address: '93.184.216.34', family: 4 },
    { address: '2606:2800:220:1::1', family: 6 },
  ]);

  it('answers single lookups with the first checked address, whatever the host name', () => {
    const got = new Promise<[string, number | undefined]>((resolve, reject) =>
      lookup('rebinding.example', { family: 0 }, (err, address, family) => (err ? reject(err) : resolve([address as string, family]))),
    );
    return expect(got).resolves.toEqual(['93.184.216.34', 4]);
  });

  it('answers `all` lookups with exactly the checked addresses', () => {
    const got = new Promise<LookupAddress[]>((resolve, reject) =>
      lookup('rebinding.example', { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses as LookupAddress[]))),
    );
    return expect(got).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
  });

  it('needs an address', () => {
    expect(() => pinnedLookup([])).toThrow(/at least one/);
  });
});

describe('refuseIfPrivate', () => {
  const url = new URL('https://media.example.com/v.mp4?sig=secret');

  it('passes when every address is public', () => {
    expect(() => refuseIfPrivate(url, ['93.184.216.34', '2606:4700:4700::1111'])).not.toThrow();
  });

  it('refuses when ANY address is private, naming the host but not the query', () => {
    let err: unknown;
    try {
      refuseIfPrivate(url, ['93.184.216.34', '10.0.0.5']);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UnsafeUrlError);
    expect(err).toMatchObject({ code: 'PRIVATE_ADDRESS' });
    expect((err as Error).message).toContain('media.example.com');
    expect((err as Error).message).toContain('private');
    expect((err as Error).message).not.toContain('secret');
  });
});

describe('SafeFetcher configuration', () => {
  it('refuses malformed allow-list entries at construction', () => {
    expect(() => new SafeFetcher({ allowedHosts: ['media.example.com:http'] })).toThrow(/port must be a number/);
  });
});
