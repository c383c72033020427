/**
 * The address per-address limits (login throttle, uploads, new sessions) count under, and which
 * proxies may name it: by default only the loopback hop, so X-Forwarded-For from any other
 * address (a private one included) names nobody but that address.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { loadGatewayConfig } from '../config';
import { limitAddress } from './client-address';

describe('limitAddress', () => {
  it('keeps IPv4 addresses, and reads IPv4-mapped IPv6 as IPv4', () => {
    expect(limitAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(limitAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(limitAddress('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts an IPv6 client by its /64, however the address is written', () => {
    expect(limitAddress('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(limitAddress('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(limitAddress('2001:0DB8:0001:0002:0000:0000:0000:0009')).toBe('2001:db8:1:2::/64');
    expect(limitAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limitAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(limitAddress('::1')).toBe('0:0:0:0::/64');
    expect(limitAddress('2001:db8:1:3::1')).not.toBe(limitAddress('2001:db8:1:2::1'));
  });

  it('is "unknown" without a usable address', () => {
    expect(limitAddress(undefined)).toBe('unknown');
    expect(limitAddress('')).toBe('unknown');
    expect(limitAddress('not an address')).toBe('unknown');
  });
});

describe('TRUST_PROXY', () => {
  const base = {
    NATS_URL: 'nats://127.0.0.1:4222',
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/wordcut',
    S3_ACCESS_KEY_ID: 'key',
    S3_SECRET_ACCESS_KEY: 'secret',
    S3_BUCKET: 'wordcut-media',
    GATEWAY_SESSION_SECRET: 'x'.repeat(32),
    PROVIDER_JWKS_URL: 'https://provider.example/jwks.json',
  };

  it('trusts only the loopback hop unless the operator names the ingress', () => {
    expect(loadGatewayConfig(base).TRUST_PROXY).toBe('loopback');
    expect(loadGatewayConfig({ ...base, TRUST_PROXY: '10.42.0.0/16' }).TRUST_PROXY).toBe('10.42.0.0/16');
  });

  /** req.ip of a request from 127.0.0.1 carrying `forwarded`, under the trust setting `trust`. */
  async function clientIp(trust: string, forwarded: string): Promise<string> {
    const app = express();
    app.set('trust proxy', trust);
    app.get('/', (req, res) => void res.send(req.ip));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((ok) => server.once('listening', ok));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers: { 'x-forwarded-for': forwarded } });
      return await res.text();
    } finally {
      server.close();
    }
  }

  it('lets a trusted hop name the client, and no private hop behind it reset the count', async () => {
    const trust = loadGatewayConfig(base).TRUST_PROXY;
    // from the loopback ingress: the last untrusted hop is the client
    expect(await clientIp(trust, '198.51.100.9')).toBe('198.51.100.9');
    // a private address in the chain is not trusted: it, not what it claims, is the client
    expect(await clientIp(trust, '198.51.100.9, 10.0.0.5')).toBe('10.0.0.5');
    // the old default trusted every private range: any of them could name anyone
    expect(await clientIp('loopback, linklocal, uniquelocal', '198.51.100.9, 10.0.0.5')).toBe('198.51.100.9');
  });
});
