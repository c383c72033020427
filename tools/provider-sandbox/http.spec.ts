import { escapeHtml, isLoopback } from './http';

describe('isLoopback (the control API answers only these)', () => {
  it('accepts IPv4 loopback, IPv6 loopback and IPv4-mapped loopback', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect([a, isLoopback(a)]).toEqual([a, true]);
  });
  it('refuses everything else', () => {
    for (const a of [undefined, '', '10.0.0.1', '192.0.2.2', '::ffff:10.0.0.1', 'fd00::2', '128.0.0.1', '127.0.0.1.evil']) expect([a, isLoopback(a)]).toEqual([a, false]);
  });
});

describe('escapeHtml', () => {
  it('escapes markup and quotes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
