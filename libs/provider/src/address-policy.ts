/**
 * Pure rules behind SafeFetcher: which IP addresses are public, and which hosts are allow-listed.
 * No IO here, so every rule is unit-tested directly.
 */
import ipaddr from 'ipaddr.js';

export type AddressVerdict =
  | { public: true; address: string }
  /** `range` is ipaddr.js's name for it: loopback, private, linkLocal, uniqueLocal, carrierGradeNat, ... */
  | { public: false; address: string; range: string };

/**
 * Classifies one IP address. Only globally routable unicast space counts as public; everything
 * ipaddr.js puts in a special range (loopback, private, link-local, unique-local, CGNAT,
 * multicast, unspecified, broadcast, reserved, NAT64/6to4/Teredo, ...) does not. IPv4-mapped IPv6
 * addresses are judged by the IPv4 address they carry. Unparseable input is never public.
 */
export function classifyAddress(address: string): AddressVerdict {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(stripBrackets(address));
  } catch {
    return { public: false, address, range: 'invalid' };
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  return range === 'unicast' ? { public: true, address } : { public: false, address, range };
}

/** True when `host` is an IP literal (v4, or v6 with or without brackets). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(stripBrackets(host));
}

/** A parsed allow-list entry: 'host', 'host:port', '*.example.com', '[::1]:8080'. */
export interface HostPattern {
  /** lowercase host without brackets; for wildcards, the suffix including the leading dot */
  host: string;
  wildcard: boolean;
  /** undefined = any port */
  port?: number;
}

/**
 * Parses an allow-list entry. `host` alone matches any port, `host:port` only that port;
 * `*.example.com` matches any subdomain (at any depth) of example.com, not example.com itself.
 */
export function parseHostPattern(entry: string): HostPattern {
  const raw = entry.trim().toLowerCase();
  let host = raw;
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw);
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2] !== undefined ? Number(bracketed[2]) : undefined;
  } else if ((raw.match(/:/g) ?? []).length === 1) {
    const [h, p] = raw.split(':');
    host = h!;
    if (!/^\d+$/.test(p!)) throw new Error(`host pattern '${entry}': the port must be a number`);
    port = Number(p);
  }
  if (port !== undefined && (port < 1 || port > 65535)) throw new Error(`host pattern '${entry}': port out of range`);
  const wildcard = host.startsWith('*.');
  if (wildcard) host = host.slice(1);
  if (!host || host === '.' || host.includes('*') || host.includes('/')) {
    throw new Error(`host pattern '${entry}' is not a host, host:port or *.domain`);
  }
  return { host, wildcard, ...(port !== undefined ? { port } : {}) };
}

/** The port a URL really connects to (explicit, or the scheme's default). */
export function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** Does the URL's host (and port) match one of the patterns? */
export function hostMatches(url: URL, patterns: readonly HostPattern[]): boolean {
  const host = stripBrackets(url.hostname.toLowerCase()).replace(/\.$/, '');
  const port = effectivePort(url);
  return patterns.some((p) => {
    if (p.port !== undefined && p.port !== port) return false;
    return p.wildcard ? host.endsWith(p.host) && host.length > p.host.length : host === p.host;
  });
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
