import { createHmac } from 'node:crypto';
import { parseSignatureHeader, signWebhook, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from './webhook';

const SECRET = 'whsec_test_secret_0123456789abcdef';
const BODY = JSON.stringify({ id: 'evt_1', type: 'upload.completed', createdAt: '2026-01-01T00:00:00.000Z', data: { sessionId: 's', uploadId: 'u', kind: 'video', providerVideoId: 'v' } });
const NOW = 1_780_000_000;

describe('signWebhook', () => {
  it('is t=<unix>,v1=<hex HMAC-SHA256 of "t.body">', () => {
    const expected = createHmac('sha256', SECRET).update(`${NOW}.${BODY}`).digest('hex');
    expect(signWebhook(SECRET, BODY, NOW)).toBe(`t=${NOW},v1=${expected}`);
    expect(signWebhook(SECRET, Buffer.from(BODY), NOW)).toBe(`t=${NOW},v1=${expected}`);
  });

  it('gives one v1 entry per secret while rotating', () => {
    const header = signWebhook(['old-secret-old-secret-0123456789', SECRET], BODY, NOW);
    expect(parseSignatureHeader(header)?.v1).toHaveLength(2);
  });

  it('refuses a non-integer timestamp and an empty secret', () => {
    expect(() => signWebhook(SECRET, BODY, 1.5)).toThrow(/integer/);
    expect(() => signWebhook('', BODY, NOW)).toThrow(/secret/);
  });

  it('names the header in lower case, as node hands headers over', () => {
    expect(WEBHOOK_SIGNATURE_HEADER).toBe('provider-signature');
  });
});

describe('verifyWebhookSignature', () => {
  const verify = (o: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
    verifyWebhookSignature({ secret: SECRET, rawBody: BODY, header: signWebhook(SECRET, BODY, NOW), nowSec: NOW, ...o });

  it('accepts a valid signature and returns its timestamp (body as string or Buffer)', () => {
    expect(verify({})).toEqual({ ok: true, timestamp: NOW });
    expect(verify({ rawBody: Buffer.from(BODY) })).toEqual({ ok: true, timestamp: NOW });
  });

  it('refuses a tampered body', () => {
    expect(verify({ rawBody: BODY.replace('upload.completed', 'upload.failed') })).toEqual({ ok: false, reason: 'signature_mismatch' });
    // even re-serialised JSON with the same meaning is another body
    expect(verify({ rawBody: JSON.stringify(JSON.parse(BODY), null, 1) })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('refuses a signature made with another secret', () => {
    expect(verify({ header: signWebhook('not-the-secret-not-the-secret-0123', BODY, NOW) })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('refuses a timestamp older or further ahead than the tolerance (300 s by default), accepts one inside it', () => {
    expect(verify({ header: signWebhook(SECRET, BODY, NOW - 301) })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verify({ header: signWebhook(SECRET, BODY, NOW + 301) })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verify({ header: signWebhook(SECRET, BODY, NOW - 300) })).toEqual({ ok: true, timestamp: NOW - 300 });
    expect(verify({ header: signWebhook(SECRET, BODY, NOW - 3600), toleranceSec: 7200 })).toMatchObject({ ok: true });
  });

  it('a signature with a changed timestamp does not verify (the timestamp is signed)', () => {
    const v1 = signWebhook(SECRET, BODY, NOW).split(',')[1];
    expect(verify({ header: `t=${NOW + 1},${v1}` })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('reports a missing header and malformed ones', () => {
    expect(verify({ header: undefined })).toEqual({ ok: false, reason: 'missing_header' });
    expect(verify({ header: '  ' })).toEqual({ ok: false, reason: 'missing_header' });
    const v1 = signWebhook(SECRET, BODY, NOW).split(',')[1]!;
    for (const header of ['garbage', `v1=${'a'.repeat(64)}`, `t=${NOW}`, `t=abc,${v1}`, `t=${NOW},v1=xyz`, `t=${NOW},t=${NOW},${v1}`, `t=${NOW},${v1},junk`]) {
      expect([header, verify({ header })]).toEqual([header, { ok: false, reason: 'malformed_header' }]);
    }
  });

  it('accepts any matching v1 entry (the provider rotating its secret) and ignores other schemes', () => {
    const rotating = signWebhook(['old-secret-old-secret-0123456789', SECRET], BODY, NOW);
    expect(verify({ header: rotating })).toEqual({ ok: true, timestamp: NOW });
    const withV0 = `${signWebhook(SECRET, BODY, NOW)},v0=${'0'.repeat(64)}`;
    expect(verify({ header: withV0 })).toEqual({ ok: true, timestamp: NOW });
    const onlyWrong = signWebhook(['old-secret-old-secret-0123456789', 'other-secret-other-secret-012345'], BODY, NOW);
    expect(verify({ header: onlyWrong })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('accepts either of our secrets while we rotate ours', () => {
    const header = signWebhook(SECRET, BODY, NOW);
    expect(verifyWebhookSignature({ secret: ['new-secret-new-secret-0123456789', SECRET], rawBody: BODY, header, nowSec: NOW })).toMatchObject({ ok: true });
  });
});
