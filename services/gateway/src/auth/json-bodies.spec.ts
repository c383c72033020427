/**
 * JSON bodies on a real Nest HTTP server set up as the service runtime sets it up (its own 1 MB
 * parser and error filter after the module is built): a large-body route reads its body only
 * once the token verifies. A refused or missing token answers 401 with the body unread (the
 * server answers while the client is still sending), a valid one has its large body read, and a
 * body over its limit answers 413 and is reported to the operators' error log.
 */
import { Body, Controller, Module, Patch, Post, type INestApplication } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ErrorBodyFilter } from '@wordcut/platform';
import { ProviderTokenVerifier } from '@wordcut/provider';
import { exportSPKI, generateKeyPair } from 'jose';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOGGER } from '../injection';
import { SessionAuth } from '../session-auth';
import { GatewayTokens } from './gateway-tokens';
import { Caller, type Identity } from './identity';
import { IdentityGuard, IdentityResolver } from './identity.guard';
import { JSON_BODY_LIMIT, jsonBodiesProvider } from './json-bodies';
import { capturedLogger } from '../../../../tools/testing/captured-logger';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const MB = 1024 * 1024;

let bodiesRead = 0;

@Controller('api')
class Routes {
  @Patch('transcripts/:id')
  patch(@Body() body: { words?: string[] }, @Caller() caller: Identity) {
    bodiesRead++;
    return { words: body.words?.length ?? 0, userId: caller.userId };
  }

  @Post('clips')
  clip(@Body() body: { name?: string }) {
    bodiesRead++;
    return { name: body.name?.length ?? 0 };
  }
}

const { logger, lines: logs } = capturedLogger();
const tokens = new GatewayTokens(SECRET, { sessionTtlSec: 3600, sessionMaxLifetimeSec: 7 * 24 * 3600, mediaTtlSec: 3600 });
let app: INestApplication;
let base: string;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  const auth = new SessionAuth(new ProviderTokenVerifier({ issuer: 'provider', audience: 'wordcut', publicKeyPem: await exportSPKI(pair.publicKey) }));
  @Module({
    controllers: [Routes],
    providers: [
      { provide: APP_GUARD, useClass: IdentityGuard },
      IdentityResolver,
      { provide: SessionAuth, useValue: auth },
      { provide: GatewayTokens, useValue: tokens },
      { provide: LOGGER, useValue: logger },
      jsonBodiesProvider,
    ],
  })
  class TestModule {}
  const nest = await NestFactory.create<NestExpressApplication>(TestModule, { logger: false, bodyParser: true });
  // what the service runtime does after building the module
  nest.useBodyParser('json', { limit: JSON_BODY_LIMIT });
  nest.useGlobalFilters(new ErrorBodyFilter(logger));
  await nest.listen(0, '127.0.0.1');
  app = nest;
  base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
});

beforeEach(() => {
  bodiesRead = 0;
  logs.length = 0;
});

/** A JSON body of about `bytes` bytes. */
const bodyOf = (bytes: number) => JSON.stringify({ words: Array.from({ length: Math.ceil(bytes / 100) }, () => 'w'.repeat(94)) });

/**
 * Sends the headers of a `length`-byte body and only its first kilobyte, then waits for an answer:
 * a server that reads the body before answering never answers this.
 */
function answerWithoutBody(path: string, headers: Record<string, string>, length: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: 'PATCH', headers: { ...headers, 'content-type': 'application/json', 'content-length': String(length) } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer: the server waited for the body'));
    }, 3000);
    req.on('close', () => clearTimeout(timer));
    req.write(`{"words":["${'w'.repeat(1000)}`);
  });
}

describe('large JSON bodies', () => {
  it('answer 401 for a bogus or missing token without reading the body', async () => {
    const bogus = await answerWithoutBody('/api/transcripts/t1', { authorization: 'Bearer not.a.token' }, 5 * MB);
    expect(bogus.status).toBe(401);
    expect(JSON.parse(bogus.body)).toMatchObject({ code: 'UNAUTHORIZED' });
    const missing = await answerWithoutBody('/api/transcripts/t1', {}, 5 * MB);
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body)).toMatchObject({ message: 'Authentication required', details: { reason: 'TOKEN_MISSING' } });
    expect(bodiesRead).toBe(0);
  });

  it('answer 401 to a whole large body sent with a bogus token', async () => {
    const res = await fetch(`${base}/api/transcripts/t1`, { method: 'PATCH', headers: { authorization: 'Bearer not.a.token', 'content-type': 'application/json' }, body: bodyOf(2 * MB) });
    expect(res.status).toBe(401);
    expect(bodiesRead).toBe(0);
  });

  it("read a large body once the token verifies, up to the route's limit", async () => {
    const session = await tokens.issueSession();
    const res = await fetch(`${base}/api/transcripts/t1`, { method: 'PATCH', headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' }, body: bodyOf(3 * MB) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ words: Math.ceil((3 * MB) / 100), userId: session.userId });
    const over = await fetch(`${base}/api/transcripts/t1`, { method: 'PATCH', headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' }, body: bodyOf(25 * MB) });
    expect(over.status).toBe(413);
    expect(logs.find((l) => l['msg'] === 'request refused: body too large')).toMatchObject({ level: 'warn', report: true, path: '/api/transcripts/t1', limit: '24mb', userId: session.userId });
  });
});

describe('other JSON bodies', () => {
  it('are read up to 1 MB, with or without a token, and refused above it with 413, reported', async () => {
    const session = await tokens.issueSession();
    const small = await fetch(`${base}/api/clips`, { method: 'POST', headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(1000) }) });
    expect(small.status).toBe(201);
    const big = await fetch(`${base}/api/clips`, { method: 'POST', headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(2 * MB) }) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { message: string }).message).toMatch(/too large/);
    expect(logs.find((l) => l['msg'] === 'request refused: body too large')).toMatchObject({ level: 'warn', report: true, path: '/api/clips', limit: JSON_BODY_LIMIT });
    expect(bodiesRead).toBe(1);
  });
});
