import { classifyAddress, effectivePort, hostMatches, isIpLiteral, parseHostPattern } from './address-policy';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052'],
    ['2002:7f00:1::1', '6to4'],
    ['[::1]', 'loopback'],
    ['not-an-ip', 'invalid'],
  ])('%s is not public (%s)', (address, range) => {
    expect(classifyAddress(address)).toEqual({ public: false, address, range });
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(classifyAddress(address)).toEqual({ public: true, address });
    },
  );
});

describe('isIpLiteral', () => {
  it('tells IP literals from host names', () => {
    expect(isIpLiteral('127.0.0.1')).toBe(true);
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('::ffff:10.0.0.1')).toBe(true);
    expect(isIpLiteral('localhost')).toBe(false);
    expect(isIpLiteral('media.example.com')).toBe(false);
  });
});

describe('parseHostPattern', () => {
  it('parses host, host:port, wildcards and bracketed IPv6', () => {
    expect(parseHostPattern('Media.Example.com')).toEqual({ host: 'media.example.com', wildcard: false });
    expect(parseHostPattern('localhost:4610')).toEqual({ host: 'localhost', wildcard: false, port: 4610 });
    expect(parseHostPattern('*.cdn.example.com')).toEqual({ host: '.cdn.example.com', wildcard: true });
    expect(parseHostPattern('*.cdn.example.com:8443')).toEqual({ host: '.cdn.example.com', wildcard: true, port: 8443 });
    expect(parseHostPattern('[::1]:8080')).toEqual({ host: '::1', wildcard: false, port: 8080 });
    expect(parseHostPattern('[::1]')).toEqual({ host: '::1', wildcard: false });
    expect(parseHostPattern('::1')).toEqual({ host: '::1', wildcard: false });
  });

  it.each(['', '*', '*.', 'a*.example.com', 'host:abc', 'host:0', 'host:70000', 'example.com/path'])('refuses %j', (entry) => {
    expect(() => parseHostPattern(entry)).toThrow(/host pattern|port/);
  });
});

describe('hostMatches', () => {
  const patterns = ['media.example.com', 'localhost:4610', '*.cdn.example.com', '[::1]:9000'].map(parseHostPattern);
  const match = (url: string): boolean => hostMatches(new URL(url), patterns);

  it('matches exact hosts on any port when the entry has none', () => {
    expect(match('https://media.example.com/v.mp4')).toBe(true);
    expect(match('http://MEDIA.example.com:8080/v.mp4')).toBe(true);
    expect(match('https://media.example.com./v.mp4')).toBe(true);
  });

  it('matches host:port entries only on that port (default ports included)', () => {
    expect(match('http://localhost:4610/x')).toBe(true);
    expect(match('http://localhost:4611/x')).toBe(false);
    expect(match('http://localhost/x')).toBe(false);
    expect(hostMatches(new URL('https://a.test/x'), [parseHostPattern('a.test:443')])).toBe(true);
    expect(hostMatches(new URL('http://a.test/x'), [parseHostPattern('a.test:443')])).toBe(false);
  });

  it('matches wildcard subdomains at any depth, not the bare domain nor look-alikes', () => {
    expect(match('https://a.cdn.example.com/x')).toBe(true);
    expect(match('https://a.b.cdn.example.com/x')).toBe(true);
    expect(match('https://cdn.example.com/x')).toBe(false);
    expect(match('https://evilcdn.example.com/x')).toBe(false);
    expect(match('https://cdn.example.com.evil.test/x')).toBe(false);
  });

  it('matches bracketed IPv6 hosts and refuses everything else', () => {
    expect(match('http://[::1]:9000/x')).toBe(true);
    expect(match('http://[::1]:9001/x')).toBe(false);
    expect(match('https://example.com/x')).toBe(false);
    expect(match('https://media.example.com.evil.test/x')).toBe(false);
  });

  it('knows default ports', () => {
    expect(effectivePort(new URL('https://a.test/'))).toBe(443);
    expect(effectivePort(new URL('http://a.test/'))).toBe(80);
    expect(effectivePort(new URL('http://a.test:81/'))).toBe(81);
  });
});
