import fc from 'fast-check';
import { exportRequestSchema, type ExportMuteLevel } from '@wordcut/contracts';
import { exportableItems, itemKey, type PublishClip, type PublishVideo } from './items';
import {
  base64UrlToBytes,
  buildExportBody,
  buildExportRequest,
  canonicalJson,
  decodeTokenClaims,
  mergeMuteSegments,
  muteLevelOfVolume,
  newIdempotencyKey,
  utf8Decode,
  validateClonedToken,
} from './request';

const VIDEO_ID = '6f1c2f0e-8a43-4c4b-9a52-2f4d7f0b9a10';
const CLIP_A = '0b8c1e9a-1111-4c4b-9a52-2f4d7f0b9a11';
const CLIP_B = '0b8c1e9a-2222-4c4b-9a52-2f4d7f0b9a12';
const CLIP_C = '0b8c1e9a-3333-4c4b-9a52-2f4d7f0b9a13';

const video: PublishVideo = {
  id: VIDEO_ID,
  title: 'Talk',
  originalName: 'talk.mp4',
  videoChanged: true,
  vttChanged: true,
  wordBywordChanged: false,
  providerMainVideoUploadStatus: 'none',
  providerVttUploadStatus: 'none',
  providerSessionId: 'sess-1',
  providerIsClone: false,
  duration: 60,
};

const clips: PublishClip[] = [
  { id: CLIP_A, name: 'A', startTime: 1, endTime: 11, aspectRatio: '9:16', status: 'completed' },
  { id: CLIP_B, name: 'B', startTime: 5, endTime: 8.5, aspectRatio: null, status: 'processing' },
  { id: CLIP_C, name: 'C', startTime: 20, endTime: 50, aspectRatio: 'weird', status: 'completed' },
];

/** A JWT-shaped token with the given payload (the signature is not checked by the decoder). */
function jwt(payload: unknown): string {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
  return `${b64('{"alg":"ES256","typ":"JWT"}')}.${b64(JSON.stringify(payload))}.c2ln`;
}

describe('newIdempotencyKey', () => {
  it('joins video id, timestamp and random part, and fits the contract', () => {
    const key = newIdempotencyKey(VIDEO_ID, 1_741_000_000_000, 'k3j9x2');
    expect(key).toBe(`${VIDEO_ID}-1741000000000-k3j9x2`);
    expect(exportRequestSchema.shape.idempotencyKey.safeParse(key).success).toBe(true);
  });
});

describe('mergeMuteSegments', () => {
  it('sorts, merges overlaps and touching ranges, drops empty or broken ones', () => {
    expect(
      mergeMuteSegments([
        { startTime: 10, endTime: 12 },
        { startTime: 1, endTime: 3 },
        { startTime: 2, endTime: 4 },
        { startTime: 4, endTime: 5 },
        { startTime: 7, endTime: 7 },
        { startTime: 9, endTime: 8 },
        { startTime: NaN, endTime: 3 },
        { startTime: -2, endTime: 0.5 },
        { startTime: 10.5, endTime: 11 },
      ]),
    ).toEqual([
      { start: 0, end: 0.5, level: 'silence' },
      { start: 1, end: 5, level: 'silence' },
      { start: 10, end: 12, level: 'silence' },
    ]);
  });

  it('accepts processed mutes in the video record shape (start/end and the volume they were rendered at)', () => {
    expect(mergeMuteSegments([{ start: 4, end: 6, volume: 0 }, { startTime: 5, endTime: 8 }])).toEqual([{ start: 4, end: 8, level: 'silence' }]);
    expect(mergeMuteSegments([{ start: 4, end: 6, volume: 0.1 }, { start: 7, end: 9, volume: 0.3 }])).toEqual([
      { start: 4, end: 6, level: 'whisper' },
      { start: 7, end: 9, level: 'background' },
    ]);
  });

  it('dedupes a pending mute that repeats a processed one', () => {
    expect(mergeMuteSegments([{ startTime: 1, endTime: 2, level: 'whisper' }, { start: 1, end: 2, volume: 0.1 }])).toEqual([{ start: 1, end: 2, level: 'whisper' }]);
  });

  it('keeps the levels apart: a whisper beside or over a silence is not merged into it', () => {
    expect(
      mergeMuteSegments([
        { startTime: 1, endTime: 3, level: 'silence' },
        { startTime: 3, endTime: 5, level: 'whisper' },
        { startTime: 2, endTime: 4, level: 'background' },
        { startTime: 4.5, endTime: 6, level: 'whisper' },
      ]),
    ).toEqual([
      { start: 1, end: 3, level: 'silence' },
      { start: 2, end: 4, level: 'background' },
      { start: 3, end: 6, level: 'whisper' },
    ]);
  });

  it('names the level of a rendered volume by the nearest one', () => {
    expect([0, 0.02, 0.1, 0.19, 0.21, 0.3, 1].map(muteLevelOfVolume)).toEqual(['silence', 'silence', 'whisper', 'whisper', 'background', 'background', 'background']);
  });

  it('property: per level, output is sorted, disjoint, non-empty, and covers exactly the valid input of that level', () => {
    const level = fc.constantFrom<ExportMuteLevel>('silence', 'whisper', 'background');
    const range = fc.record({ startTime: fc.integer({ min: -5, max: 100 }), endTime: fc.integer({ min: -5, max: 100 }), level });
    fc.assert(
      fc.property(fc.array(range, { maxLength: 30 }), (ranges) => {
        const out = mergeMuteSegments(ranges);
        for (let i = 1; i < out.length; i++) expect(out[i]!.start).toBeGreaterThanOrEqual(out[i - 1]!.start);
        for (const lvl of ['silence', 'whisper', 'background'] as const) {
          const mine = out.filter((s) => s.level === lvl);
          for (let i = 0; i < mine.length; i++) {
            expect(mine[i]!.end).toBeGreaterThan(mine[i]!.start);
            expect(mine[i]!.start).toBeGreaterThanOrEqual(0);
            if (i > 0) expect(mine[i]!.start).toBeGreaterThan(mine[i - 1]!.end);
          }
          // every half-unit point is covered by the output iff it is covered by some valid input range
          for (let t = 0.25; t < 100; t += 0.5) {
            const inInput = ranges.some((r) => r.level === lvl && r.endTime > r.startTime && t >= Math.max(0, r.startTime) && t <= r.endTime);
            const inOutput = mine.some((s) => t >= s.start && t <= s.end);
            expect(inOutput).toBe(inInput);
          }
        }
        expect(mergeMuteSegments(out.map((s) => ({ startTime: s.start, endTime: s.end, level: s.level })))).toEqual(out);
      }),
    );
  });
});

describe('buildExportRequest', () => {
  const items = exportableItems(video, clips, 2);
  const base = {
    video,
    items,
    clips,
    pendingMutes: [{ startTime: 30, endTime: 32 }],
    processedMutes: [
      { startTime: 5, endTime: 6 },
      { startTime: 31, endTime: 33 },
    ],
    idempotencyKey: newIdempotencyKey(VIDEO_ID, 1, 'abcdef'),
    sessionId: 'sess-1',
  };

  it('builds the request of the selection', () => {
    const req = buildExportRequest({ ...base, selected: new Set(items.map(itemKey)) });
    expect(req).toEqual({
      videoId: VIDEO_ID,
      sessionId: 'sess-1',
      saveMainVideo: true,
      saveVtt: true,
      mainVideoEdits: {
        muteSegments: [
          { start: 5, end: 6, level: 'silence' },
          { start: 30, end: 33, level: 'silence' },
        ],
        captionsEnabled: false,
        effectsApplied: [],
      },
      clips: [
        { clipId: CLIP_A, clipIndex: 0, aspectRatio: '9:16', duration: 10 },
        { clipId: CLIP_C, clipIndex: 2, aspectRatio: '16:9', duration: 30 },
      ],
      idempotencyKey: `${VIDEO_ID}-1-abcdef`,
    });
    expect(exportRequestSchema.safeParse(req).success).toBe(true);
  });

  it('sends only what is selected and offered; a processing clip selected by a stale key is left out', () => {
    const req = buildExportRequest({ ...base, selected: new Set([`vtt:${VIDEO_ID}`, `clip:${CLIP_B}`, `clip:${CLIP_C}`]) });
    expect(req.saveMainVideo).toBe(false);
    expect(req.saveVtt).toBe(true);
    expect(req.clips).toEqual([{ clipId: CLIP_C, clipIndex: 2, aspectRatio: '16:9', duration: 30 }]);
  });

  it('is the body of the selection with the idempotency key', () => {
    const selected = new Set([`main_video:${VIDEO_ID}`, `clip:${CLIP_A}`]);
    const { idempotencyKey, ...body } = buildExportRequest({ ...base, selected });
    expect(body).toEqual(buildExportBody({ ...base, selected }));
    expect(idempotencyKey).toBe(base.idempotencyKey);
    // the builder's input carries a key here: the body still leaves it out
    expect(buildExportBody({ ...base, selected })).not.toHaveProperty('idempotencyKey');
  });

  it('carries a cloned video token when given', () => {
    expect(buildExportRequest({ ...base, selected: new Set([`main_video:${VIDEO_ID}`]), token: 'tok' }).token).toBe('tok');
    expect('token' in buildExportRequest({ ...base, selected: new Set([`main_video:${VIDEO_ID}`]) })).toBe(false);
  });

  it('is refused by the contract with nothing selected', () => {
    const res = exportRequestSchema.safeParse(buildExportRequest({ ...base, selected: new Set() }));
    expect(res.success).toBe(false);
    expect(res.error?.issues[0]?.message).toBe('Please select at least one item to export');
  });

  it('property: every selection of offered items gives a request the contract accepts', () => {
    fc.assert(
      fc.property(fc.subarray(items.map(itemKey), { minLength: 1 }), (keys) => {
        const req = buildExportRequest({ ...base, selected: new Set(keys) });
        expect(exportRequestSchema.safeParse(req).success).toBe(true);
        expect(req.clips!.map((c) => `clip:${c.clipId}`)).toEqual(keys.filter((k) => k.startsWith('clip:')));
      }),
    );
  });
});

describe('cloned token', () => {
  it('reads the payload of a JWT without verifying it', () => {
    expect(decodeTokenClaims(jwt({ sessionId: 'sess-2', title: 'Vidéo ✓ 🎬' }))).toEqual({ sessionId: 'sess-2', title: 'Vidéo ✓ 🎬' });
  });

  it('is null for anything that is not a JWT with a JSON object payload', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    for (const t of ['', 'abc', 'a.b', 'a..c', `x.${b64('[1,2]')}.y`, `x.${b64('"s"')}.y`, `x.${b64('null')}.y`, `x.${b64('{bad')}.y`, 'x.@@@.y', `x.${b64('{}')}.y.z`]) {
      expect(decodeTokenClaims(t)).toBeNull();
    }
  });

  it('accepts padded base64url and rejects invalid UTF-8', () => {
    const payload = Buffer.from('{"a":1}').toString('base64url');
    expect(decodeTokenClaims(`x.${payload}==.y`)).toEqual({ a: 1 });
    const badUtf8 = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x22, 0x7d]).toString('base64url');
    expect(decodeTokenClaims(`x.${badUtf8}.y`)).toBeNull();
  });

  it('checks the session id against the video', () => {
    expect(validateClonedToken({ sessionId: 'sess-2' }, { providerSessionId: 'sess-2' })).toBeNull();
    expect(validateClonedToken({ sessionId: 'sess-2' }, { providerSessionId: 'sess-1' })).toBe('Export delayed - Video data is updating, please try again in a moment');
    expect(validateClonedToken({}, { providerSessionId: 'sess-1' })).toBe('Export delayed - Video data is updating, please try again in a moment');
    expect(validateClonedToken({ sessionId: '' }, { providerSessionId: null })).toBe('Export delayed - Video data is updating, please try again in a moment');
    expect(validateClonedToken(decodeTokenClaims('garbage'), { providerSessionId: 'sess-1' })).toBe('Failed to process cloned video token');
    expect(validateClonedToken(decodeTokenClaims(jwt({ sessionId: 'sess-1' })), { providerSessionId: 'sess-1' })).toBeNull();
  });

  it('property: base64url and UTF-8 decoding agree with Node for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => {
        const encoded = Buffer.from(s, 'utf8').toString('base64url');
        const bytes = base64UrlToBytes(encoded);
        expect(bytes && Buffer.from(bytes).equals(Buffer.from(s, 'utf8'))).toBe(true);
        expect(utf8Decode(bytes!)).toBe(s);
        expect(decodeTokenClaims(jwt({ s }))).toEqual({ s });
      }),
    );
  });

  it('property: utf8Decode accepts exactly what a fatal TextDecoder accepts', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), (bytes) => {
        let expected: string | null;
        try {
          expected = fatal.decode(bytes);
        } catch {
          expected = null;
        }
        expect(utf8Decode(bytes)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects overlong forms, surrogates and truncated sequences', () => {
    for (const bad of [[0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80]]) {
      expect(utf8Decode(Uint8Array.from(bad))).toBeNull();
    }
    expect(utf8Decode(Uint8Array.from([0xe2, 0x82, 0xac]))).toBe('€');
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('follows JSON.stringify for undefined, functions, non-finite numbers and toJSON', () => {
    expect(canonicalJson({ a: undefined, b: () => 1, c: NaN, d: [undefined, Infinity], e: new Date('2025-01-01T00:00:00Z') })).toBe('{"c":null,"d":[null,null],"e":"2025-01-01T00:00:00.000Z"}');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('x"y')).toBe('"x\\"y"');
    expect(canonicalJson(Object(5))).toBe('5');
  });

  it('throws on cycles and bigints, but allows shared references', () => {
    const a: Record<string, unknown> = {};
    a['self'] = a;
    expect(() => canonicalJson(a)).toThrow(TypeError);
    expect(() => canonicalJson({ n: BigInt(1) })).toThrow(TypeError);
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it('property: parses back to what JSON.stringify gives, and ignores key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = canonicalJson(v);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
        const reversed = JSON.parse(JSON.stringify(v), (_k, val: unknown) =>
          val && typeof val === 'object' && !Array.isArray(val) ? Object.fromEntries(Object.entries(val).reverse()) : val,
        ) as unknown;
        expect(canonicalJson(reversed)).toBe(text);
      }),
    );
  });
});
