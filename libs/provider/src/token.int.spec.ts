/**
 * ProviderTokenVerifier against the provider sandbox (a real HTTP server signing real ES256 tokens
 * and serving its JWKS): good tokens pass, every forgery and misuse is refused with the right code.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { startProviderSandbox } from '../../../tools/provider-sandbox/sandbox';
import { sandboxWithMediaForSpec } from '../../../tools/testing/provider-sandbox';
import { ProviderTokenError, ProviderTokenVerifier, type ProviderTokenErrorCode } from './token';

const EDITOR = 'http://localhost:4200';
const served = sandboxWithMediaForSpec(
  'provider-token-',
  {
    'talk.mp4': Buffer.alloc(1024, 1),
    'talk.vtt': 'WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n',
    'talk.words.json': JSON.stringify({ words: [{ text: 'hello', start: 0, end: 1 }] }),
    'plain.mp4': Buffer.alloc(10, 2),
  },
  { editorUrl: EDITOR },
);
let viaJwks: ProviderTokenVerifier;
let viaPem: ProviderTokenVerifier;

beforeAll(() => {
  viaJwks = new ProviderTokenVerifier({ issuer: served.sandbox.issuer, audience: served.sandbox.audience, jwksUrl: served.sandbox.jwksUrl });
  viaPem = new ProviderTokenVerifier({ issuer: served.sandbox.issuer, audience: served.sandbox.audience, publicKeyPem: served.sandbox.publicKeyPem });
});

async function refusal(p: Promise<unknown>): Promise<ProviderTokenError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderTokenError);
    return e as ProviderTokenError;
  }
  throw new Error('the token was accepted');
}

async function expectRefused(token: string, code: ProviderTokenErrorCode, message: RegExp, verifiers = [viaJwks, viaPem]): Promise<void> {
  for (const v of verifiers) {
    const err = await refusal(v.verify(token));
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
    expect(err.message).toMatch(/the provider/);
  }
}

const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('good tokens', () => {
  it('verifies a sandbox token via the JWKS and via the PEM key', async () => {
    const token = await served.sandbox.signToken({ sessionId: 's-1', videoId: 'v-1', title: 'My talk', languageCode: 'en' });
    for (const v of [viaJwks, viaPem]) {
      const claims = await v.verify(token);
      expect(claims).toMatchObject({
        sub: 'sandbox-user',
        sessionId: 's-1',
        videoId: 'v-1',
        title: 'My talk',
        languageCode: 'en',
        plan: { tier: 'pro', quotas: { exportsPerDay: 20, exportsPerMonth: 100 } },
        usageSnapshot: { exportsToday: 0, exportsThisMonth: 0 },
      });
      const now = Date.now() / 1000;
      expect(claims.exp).toBeGreaterThan(now + 3500);
      expect(claims.iat).toBeLessThanOrEqual(now + 1);
    }
  });

  it('/open redirects to the editor with a token naming the sandbox media and upload URLs', async () => {
    const res = await fetch(`${served.sandbox.url}/open?video=talk&session=sess-42&lang=de&plan=free`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${EDITOR}/editor`);
    const claims = await viaJwks.verify(location.searchParams.get('token'));
    expect(claims).toMatchObject({
      sessionId: 'sess-42',
      videoId: 'talk',
      languageCode: 'de',
      plan: { tier: 'free', quotas: { exportsPerDay: 2, exportsPerMonth: 5 } },
      media: {
        videoUrl: `${served.sandbox.url}/media/talk.mp4`,
        vttUrl: `${served.sandbox.url}/media/talk.vtt`,
        wordBywordUrl: `${served.sandbox.url}/media/talk.words.json`,
        uploadUrlVideo: `${served.sandbox.url}/uploads/sess-42/video`,
        uploadUrlVtt: `${served.sandbox.url}/uploads/sess-42/vtt`,
        uploadUrlWordByword: `${served.sandbox.url}/uploads/sess-42/wordByword`,
      },
    });
  });

  it('/open picks a random session, the pro plan, and leaves out a word-by-word file that does not exist', async () => {
    const sessions = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${served.sandbox.url}/open?video=plain`, { redirect: 'manual' });
      const claims = await viaPem.verify(new URL(res.headers.get('location')!).searchParams.get('token'));
      expect(claims.plan.tier).toBe('pro');
      expect(claims.media?.videoUrl).toBe(`${served.sandbox.url}/media/plain.mp4`);
      expect(claims.media).not.toHaveProperty('wordBywordUrl');
      expect(claims.languageCode).toBeUndefined();
      sessions.add(claims.sessionId);
    }
    expect(sessions.size).toBe(2);
  });

  it('/open refuses unknown videos and bad parameters', async () => {
    expect((await fetch(`${served.sandbox.url}/open?video=nope`, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${served.sandbox.url}/open?video=../etc/passwd`, { redirect: 'manual' })).status).toBe(400);
    expect((await fetch(`${served.sandbox.url}/open?video=talk&plan=gold`, { redirect: 'manual' })).status).toBe(400);
  });

  it('accepts HS256 only with the configured secret, never keyed with the public key', async () => {
    const secret = 'a-shared-secret-of-at-least-32-characters';
    const v = new ProviderTokenVerifier({
      issuer: served.sandbox.issuer,
      audience: served.sandbox.audience,
      algorithms: ['ES256', 'HS256'],
      hmacSecret: secret,
      publicKeyPem: served.sandbox.publicKeyPem,
    });
    const good = await new SignJWT({
      sub: 'u',
      sessionId: 's',
      videoId: 'v',
      plan: { tier: 'pro', quotas: {} },
      usageSnapshot: {},
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(served.sandbox.issuer)
      .setAudience(served.sandbox.audience)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(secret));
    await expect(v.verify(good)).resolves.toMatchObject({ sessionId: 's', usageSnapshot: { exportsToday: 0 } });
    // the classic confusion: HMAC keyed with the (public) PEM text
    const confused = await served.sandbox.signToken({ sessionId: 's', videoId: 'v' }, { alg: 'HS256' });
    await expectRefused(confused, 'TOKEN_INVALID', /signature does not verify/, [v]);
    // and ES256 tokens still verify with the public key on the same verifier
    await expect(v.verify(await served.sandbox.signToken({ sessionId: 's2', videoId: 'v' }))).resolves.toMatchObject({ sessionId: 's2' });
  });

  it('keeps the keypair in keyDir so a restarted sandbox still vouches for its tokens', async () => {
    const keyDir = await mkdtemp(join(tmpdir(), 'provider-keys-'));
    try {
      const first = await startProviderSandbox({ port: 0, mediaDir: served.mediaDir, editorUrl: EDITOR, keyDir });
      const token = await first.signToken({ sessionId: 'persist', videoId: 'v' });
      await first.close();
      const second = await startProviderSandbox({ port: 0, mediaDir: served.mediaDir, editorUrl: EDITOR, keyDir });
      try {
        expect(second.publicKeyPem).toBe(first.publicKeyPem);
        const v = new ProviderTokenVerifier({ issuer: second.issuer, audience: second.audience, jwksUrl: second.jwksUrl });
        await expect(v.verify(token)).resolves.toMatchObject({ sessionId: 'persist' });
      } finally {
        await second.close();
      }
    } finally {
      await rm(keyDir, { recursive: true, force: true });
    }
  });
});

describe('refused tokens', () => {
  const claims = { sessionId: 's-1', videoId: 'v-1' };

  it('refuses a token signed by another key under the sandbox kid', async () => {
    await expectRefused(await served.sandbox.signToken(claims, { key: 'forged' }), 'TOKEN_INVALID', /signature does not verify/);
  });

  it('refuses an expired token', async () => {
    await expectRefused(await served.sandbox.signToken(claims, { expiresInSec: -120 }), 'TOKEN_EXPIRED', /has expired\. Open the editor again from the provider/);
  });

  it('tolerates small clock skew only', async () => {
    const justExpired = await served.sandbox.signToken(claims, { expiresInSec: -5 });
    await expect(viaPem.verify(justExpired)).resolves.toMatchObject({ sessionId: 's-1' });
    const strict = new ProviderTokenVerifier({ issuer: served.sandbox.issuer, audience: served.sandbox.audience, publicKeyPem: served.sandbox.publicKeyPem, clockToleranceSec: 0 });
    await expectRefused(justExpired, 'TOKEN_EXPIRED', /expired/, [strict]);
  });

  it('refuses a wrong issuer and a wrong audience', async () => {
    await expectRefused(await served.sandbox.signToken(claims, { issuer: 'someone-else' }), 'TOKEN_INVALID', /not issued by the expected provider/);
    await expectRefused(await served.sandbox.signToken(claims, { audience: 'another-app' }), 'TOKEN_INVALID', /not issued for WordCut/);
  });

  it('refuses alg none (hand-crafted and sandbox-made)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      iss: served.sandbox.issuer,
      aud: served.sandbox.audience,
      exp: now + 600,
      sub: 'u',
      ...claims,
      plan: { tier: 'pro', quotas: {} },
      usageSnapshot: {},
    };
    for (const alg of ['none', 'None', 'NONE']) {
      await expectRefused(`${b64({ alg, typ: 'JWT' })}.${b64(payload)}.`, 'TOKEN_INVALID', /algorithm '.+' is not accepted/);
    }
    await expectRefused(await served.sandbox.signToken(claims, { alg: 'none' }), 'TOKEN_INVALID', /not accepted/);
  });

  it('refuses HS256 signed with the public key when no secret is configured', async () => {
    await expectRefused(await served.sandbox.signToken(claims, { alg: 'HS256' }), 'TOKEN_INVALID', /algorithm 'HS256' is not accepted/);
  });

  it('refuses algorithms outside the allow-list', async () => {
    const esOnlyNot = new ProviderTokenVerifier({ issuer: served.sandbox.issuer, audience: served.sandbox.audience, algorithms: ['RS256'], jwksUrl: served.sandbox.jwksUrl });
    await expectRefused(await served.sandbox.signToken(claims), 'TOKEN_INVALID', /'ES256' is not accepted/, [esOnlyNot]);
  });

  it('refuses a token that brings its own key (jwk / jku headers)', async () => {
    const attacker = await generateKeyPair('ES256');
    const jwk = await exportJWK(attacker.publicKey);
    const body = { sub: 'u', ...claims, plan: { tier: 'pro', quotas: {} }, usageSnapshot: {} };
    const sign = (header: Record<string, unknown>): Promise<string> =>
      new SignJWT(body)
        .setProtectedHeader({ alg: 'ES256', ...header })
        .setIssuer(served.sandbox.issuer)
        .setAudience(served.sandbox.audience)
        .setExpirationTime('5m')
        .sign(attacker.privateKey);
    await expectRefused(await sign({ jwk }), 'TOKEN_INVALID', /names its own key \(jwk\)/);
    await expectRefused(await sign({ jku: 'http://attacker.test/jwks.json' }), 'TOKEN_INVALID', /names its own key \(jku\)/);
    await expectRefused(await sign({ x5u: 'http://attacker.test/cert.pem' }), 'TOKEN_INVALID', /names its own key \(x5u\)/);
  });

  it('refuses a token signed by a key of another type than the configured one', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsaToken = await new SignJWT({ sub: 'u', ...claims, plan: { tier: 'pro', quotas: {} }, usageSnapshot: {} })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(served.sandbox.issuer)
      .setAudience(served.sandbox.audience)
      .setExpirationTime('5m')
      .sign(rsa.privateKey);
    await expectRefused(rsaToken, 'TOKEN_INVALID', /cannot be verified with the provider's key|not signed by any of the provider's keys/);
  });

  it('refuses tokens with missing or invalid private claims, naming the fields', async () => {
    const noPlan = await served.sandbox.signToken({ ...claims, plan: undefined, usageSnapshot: undefined });
    const err = await refusal(viaJwks.verify(noPlan));
    expect(err.code).toBe('TOKEN_CLAIMS_INVALID');
    expect(err.message).toMatch(/\(plan, usageSnapshot\)/);
    await expectRefused(await served.sandbox.signToken({ sessionId: '', videoId: 'v' }), 'TOKEN_CLAIMS_INVALID', /sessionId/);
    await expectRefused(await served.sandbox.signToken({ ...claims, sub: undefined }), 'TOKEN_CLAIMS_INVALID', /sub/);
    await expectRefused(
      await served.sandbox.signToken({ ...claims, media: { videoUrl: 'not a url' } }),
      'TOKEN_CLAIMS_INVALID',
      /media\.videoUrl/,
    );
  });

  it('refuses a token without an expiry', async () => {
    const secret = 'b'.repeat(32);
    const v = new ProviderTokenVerifier({ issuer: 'p', audience: 'w', algorithms: ['HS256'], hmacSecret: secret });
    const noExp = await new SignJWT({ sub: 'u', ...claims, plan: { tier: 'pro', quotas: {} }, usageSnapshot: {} })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('p')
      .setAudience('w')
      .sign(new TextEncoder().encode(secret));
    await expectRefused(noExp, 'TOKEN_INVALID', /no expiry/, [v]);
  });
});

describe('key availability', () => {
  it('reports KEYS_UNAVAILABLE when the JWKS endpoint fails or is unreachable', async () => {
    const token = await served.sandbox.signToken({ sessionId: 's', videoId: 'v' });
    const notFound = new ProviderTokenVerifier({ issuer: served.sandbox.issuer, audience: served.sandbox.audience, jwksUrl: `${served.sandbox.url}/no-such-jwks` });
    const err1 = await refusal(notFound.verify(token));
    expect(err1.code).toBe('KEYS_UNAVAILABLE');
    expect(err1.message).toMatch(/signing keys could not be fetched/);

    const gone = await startProviderSandbox({ port: 0, mediaDir: served.mediaDir, editorUrl: EDITOR });
    const goneJwks = gone.jwksUrl;
    await gone.close();
    const unreachable = new ProviderTokenVerifier({ issuer: served.sandbox.issuer, audience: served.sandbox.audience, jwksUrl: goneJwks });
    expect((await refusal(unreachable.verify(token))).code).toBe('KEYS_UNAVAILABLE');
  });
});
