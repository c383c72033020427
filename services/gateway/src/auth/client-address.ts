import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { isIP } from 'node:net';

/**
 * The client address per-address limits count under: an IPv4 address as it is, an IPv6 client
 * by its /64 (one subscriber holds a whole /64, so single addresses would be free to rotate).
 * IPv4-mapped IPv6 addresses count as their IPv4 address. `req.ip` names the client only through
 * the hops TRUST_PROXY trusts.
 */
export function limitAddress(ip: string | undefined): string {
  const address = (ip ?? '').trim().replace(/%.*$/, '');
  const kind = isIP(address);
  if (kind === 4) return address;
  if (kind !== 6) return 'unknown';
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 read as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The request's limitAddress. */
export const ClientAddress = createParamDecorator((_: unknown, ctx: ExecutionContext): string => limitAddress(ctx.switchToHttp().getRequest<Request>().ip));
