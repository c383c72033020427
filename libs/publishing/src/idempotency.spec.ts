import fc from 'fast-check';
import { exportRequestSchema } from '@wordcut/contracts';
import { IdempotencyKeys, failedAttemptEnd, requestBodyJson, type ExportAttemptEnd } from './idempotency';
import { newIdempotencyKey, type ExportRequestBody } from './request';

const VIDEO_ID = '6f1c2f0e-8a43-4c4b-9a52-2f4d7f0b9a10';
const CLIP_A = '0b8c1e9a-1111-4c4b-9a52-2f4d7f0b9a11';

const request = (patch: Partial<ExportRequestBody> = {}): ExportRequestBody => ({
  videoId: VIDEO_ID,
  sessionId: 'sess-1',
  saveMainVideo: true,
  saveVtt: false,
  mainVideoEdits: { muteSegments: [{ start: 1, end: 2 }], captionsEnabled: false, effectsApplied: [] },
  clips: [{ clipId: CLIP_A, clipIndex: 0, aspectRatio: '9:16', duration: 10 }],
  ...patch,
});

/** Keys as the dialog makes them, from a clock that moves and a counter for the random part. */
function keys() {
  let now = 1_741_000_000_000;
  let minted = 0;
  const mint = jest.fn((r: ExportRequestBody) => newIdempotencyKey(r.videoId, now++, `r${++minted}abcdef`));
  return { memo: new IdempotencyKeys(mint), mint };
}

describe('requestBodyJson', () => {
  it('leaves out the key and the token, and ignores key order', () => {
    const body = request();
    const reordered = Object.fromEntries(Object.entries(body).reverse()) as ExportRequestBody;
    expect(requestBodyJson({ ...body, idempotencyKey: 'key-00000001', token: 'a.b.c' })).toBe(requestBodyJson(reordered));
    expect(requestBodyJson(body)).not.toContain('idempotencyKey');
  });

  it('differs when anything exported differs', () => {
    const base = requestBodyJson(request());
    expect(requestBodyJson(request({ saveVtt: true }))).not.toBe(base);
    expect(requestBodyJson(request({ clips: [] }))).not.toBe(base);
    expect(requestBodyJson(request({ sessionId: 'sess-clone' }))).not.toBe(base);
    expect(requestBodyJson(request({ mainVideoEdits: { muteSegments: [], captionsEnabled: false, effectsApplied: [] } }))).not.toBe(base);
  });
});

describe('failedAttemptEnd', () => {
  it('is a refusal for a 4xx: the server stored nothing under the key', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429]) expect(failedAttemptEnd(status)).toBe('refused');
  });

  it('is unknown without an answer, for a 5xx, and for a success answer that could not be read', () => {
    for (const status of [null, 500, 502, 503, 504, 202]) expect(failedAttemptEnd(status)).toBe('unknown');
  });
});

describe('IdempotencyKeys', () => {
  it('mints a key of the seed format (video id, timestamp, random part) that the contract accepts', () => {
    const { memo, mint } = keys();
    const key = memo.keyFor(request());
    expect(key).toBe(`${VIDEO_ID}-1741000000000-r1abcdef`);
    expect(mint).toHaveBeenCalledWith(request());
    expect(exportRequestSchema.shape.idempotencyKey.safeParse(key).success).toBe(true);
  });

  it('hands the key out again for the same request while its outcome is unknown (in flight, no answer, 5xx)', () => {
    const { memo, mint } = keys();
    const first = memo.keyFor(request());
    expect(memo.keyFor(request())).toBe(first); // a double click while the first is in flight
    memo.settle(first, 'unknown');
    expect(memo.keyFor(request())).toBe(first);
    memo.settle(first, 'unknown');
    expect(memo.keyFor(request())).toBe(first);
    expect(mint).toHaveBeenCalledTimes(1);
  });

  it('keeps the key when only the token differs (a refreshed or cloned video token)', () => {
    const { memo } = keys();
    const first = memo.keyFor(request());
    memo.settle(first, 'unknown');
    expect(memo.keyFor({ ...request(), token: 'new.token.here' } as ExportRequestBody)).toBe(first);
  });

  it.each<ExportAttemptEnd>(['started', 'refused'])('mints a new key after a definitive answer (%s)', (end) => {
    const { memo } = keys();
    const first = memo.keyFor(request());
    memo.settle(first, end);
    const second = memo.keyFor(request());
    expect(second).not.toBe(first);
    expect(memo.keyFor(request())).toBe(second);
  });

  it('mints a new key when the request changed, and does not go back to the old one', () => {
    const { memo } = keys();
    const first = memo.keyFor(request());
    memo.settle(first, 'unknown');
    const changed = memo.keyFor(request({ saveVtt: true }));
    expect(changed).not.toBe(first);
    memo.settle(changed, 'unknown');
    const back = memo.keyFor(request());
    expect([first, changed]).not.toContain(back);
  });

  it('a cloned request (new session) gets a new key', () => {
    const { memo } = keys();
    const first = memo.keyFor(request());
    memo.settle(first, 'unknown');
    expect(memo.keyFor(request({ sessionId: 'sess-clone' }))).not.toBe(first);
  });

  it('ignores the late answer of an older key', () => {
    const { memo } = keys();
    const old = memo.keyFor(request());
    const current = memo.keyFor(request({ clips: [] }));
    memo.settle(old, 'started');
    expect(memo.keyFor(request({ clips: [] }))).toBe(current);
  });

  it('property: a click resends the previous key exactly when the request is the same and the previous attempt had no definitive answer', () => {
    const click = fc.record({ saveVtt: fc.boolean(), withClip: fc.boolean(), end: fc.constantFrom<ExportAttemptEnd>('started', 'refused', 'unknown') });
    fc.assert(
      fc.property(fc.array(click, { minLength: 1, maxLength: 12 }), (clicks) => {
        const { memo } = keys();
        const sent = new Set<string>();
        let previous: { key: string; body: string; end: ExportAttemptEnd } | null = null;
        for (const c of clicks) {
          const body = request({ saveVtt: c.saveVtt, ...(c.withClip ? {} : { clips: [] }) });
          const key = memo.keyFor(body);
          const reuse = previous !== null && previous.end === 'unknown' && previous.body === requestBodyJson(body);
          if (reuse) expect(key).toBe(previous!.key);
          else expect(sent.has(key)).toBe(false);
          sent.add(key);
          memo.settle(key, c.end);
          previous = { key, body: requestBodyJson(body), end: c.end };
        }
      }),
    );
  });
});
