/**
 * Request parsing of the gateway's routes: bodies read by their zod schema (400 naming the first
 * problem), ids from the path (anything not a uuid is a 404 like a missing object), and edit-list
 * errors mapped to 422. Errors are checked as the AppError the gateway's filter renders.
 */
import { ErrorCode, MAX_INSERTED_WORDS, transcriptPatchSchema } from '@wordcut/contracts';
import { EditListError, applyCuts, identityEditList } from '@wordcut/edit-list';
import { AppError } from '@wordcut/platform';
import { z } from 'zod';
import { thrownBy } from '../../../tools/testing/thrown';
import { editing, invalidBody, parseBody, parseId, TOO_MANY_ENTRIES } from './http';

const thrown = (fn: () => unknown): AppError => thrownBy(fn, AppError);

describe('parseBody', () => {
  const schema = z
    .object({ title: z.string().min(1, 'give the clip a name'), range: z.object({ start: z.number('start must be a number'), end: z.number() }).optional() })
    .strict();

  it('answers the parsed body, with schema defaults and transforms applied', () => {
    const withDefault = z.object({ level: z.enum(['soft', 'full']).default('full'), n: z.coerce.number() });
    expect(parseBody(withDefault, { n: '3' })).toEqual({ level: 'full', n: 3 });
    expect(parseBody(schema, { title: 'Intro', range: { start: 0, end: 1 } })).toEqual({ title: 'Intro', range: { start: 0, end: 1 } });
  });

  it('reads a missing body as an empty object', () => {
    expect(parseBody(z.object({ title: z.string().optional() }), undefined)).toEqual({});
    expect(parseBody(z.object({ title: z.string().optional() }), null)).toEqual({});
    const e = thrown(() => parseBody(schema, undefined));
    expect(e.statusCode).toBe(400);
    expect(e.message).toMatch(/^title: /);
  });

  it('answers 400 VALIDATION_FAILED naming the path of the first problem, with every issue in details', () => {
    const e = thrown(() => parseBody(schema, { title: '', range: { start: 'a', end: 1 } }));
    expect(e.statusCode).toBe(400);
    expect(e.code).toBe(ErrorCode.ValidationFailed);
    expect(e.message).toBe('title: give the clip a name');
    const issues = (e.details as { issues: { path: (string | number)[] }[] }).issues;
    expect(issues.map((i) => i.path.join('.'))).toEqual(['title', 'range.start']);
  });

  it('leaves out the path prefix when the problem is the body itself', () => {
    const e = thrown(() => parseBody(z.string('send the title as text'), 42));
    expect(e.statusCode).toBe(400);
    expect(e.message).toBe('send the title as text');
  });

  it('refuses unknown keys of a strict schema', () => {
    const e = thrown(() => parseBody(schema, { title: 'x', extra: true }));
    expect(e.statusCode).toBe(400);
    expect((e.details as { issues: { code: string }[] }).issues.map((i) => i.code)).toEqual(['unrecognized_keys']);
    expect(e.message).toMatch(/extra/);
  });
});

describe('parseId', () => {
  it('answers a uuid as it is', () => {
    const id = 'b3f1c7a2-8d4e-4f6a-9b1c-2d3e4f5a6b7c';
    expect(parseId(id)).toBe(id);
    expect(parseId(id.toUpperCase(), 'clip')).toBe(id.toUpperCase());
  });

  it('answers anything else 404 NOT_FOUND naming what was asked for', () => {
    const e = thrown(() => parseId('not-a-uuid'));
    expect(e.statusCode).toBe(404);
    expect(e.code).toBe(ErrorCode.NotFound);
    expect(e.message).toBe("There is no video with id 'not-a-uuid'.");
    expect(thrown(() => parseId('42', 'clip')).message).toBe("There is no clip with id '42'.");
    expect(thrown(() => parseId('')).statusCode).toBe(404);
  });

  it('quotes at most 64 characters of a long id', () => {
    const e = thrown(() => parseId('x'.repeat(500)));
    expect(e.message).toBe(`There is no video with id '${'x'.repeat(64)}'.`);
  });
});

describe('editing', () => {
  it('answers what the edit answers', () => {
    const el = editing(() => applyCuts(identityEditList(10), [{ start: 2, end: 4 }]));
    expect(el.segments).toEqual([
      { start: 0, end: 2 },
      { start: 4, end: 10 },
    ]);
  });

  it("maps an edit-list error to 422 VALIDATION_FAILED with the library's message and code as reason", () => {
    const e = thrown(() => editing(() => applyCuts(identityEditList(10), [{ start: 0, end: 10 }])));
    expect(e.statusCode).toBe(422);
    expect(e.code).toBe(ErrorCode.ValidationFailed);
    expect(e.details).toEqual({ reason: 'EMPTY_RESULT' });
    const direct = thrown(() =>
      editing(() => {
        throw new EditListError('INVALID_RANGE', 'cut 1 ends before it starts.');
      }),
    );
    expect(direct.message).toBe('cut 1 ends before it starts.');
    expect(direct.details).toEqual({ reason: 'INVALID_RANGE' });
  });

  it('lets any other error through unchanged', () => {
    const boom = new TypeError('boom');
    expect(() =>
      editing(() => {
        throw boom;
      }),
    ).toThrow(boom);
  });
});

describe('invalidBody', () => {
  it("names the problem of the union branch the body meant (a transcript PATCH), and marks a list over its limit", () => {
    const insertAfter = Array.from({ length: MAX_INSERTED_WORDS + 1 }, () => ({ text: 'a', start: 0, end: 0.1 }));
    const r = transcriptPatchSchema.safeParse({ wordDeltas: [{ word_order: -1, insertAfter }] });
    const e = invalidBody(r.error!.issues, 'Send words (full replacement) or wordDeltas: ');
    expect(e.statusCode).toBe(400);
    expect(e.message).toBe(`Send words (full replacement) or wordDeltas: wordDeltas.0.insertAfter: At most ${MAX_INSERTED_WORDS} words can be inserted in one place.`);
    expect(e.details).toMatchObject({ reason: TOO_MANY_ENTRIES });
    const unknown = invalidBody(transcriptPatchSchema.safeParse({ wordDeltas: [{ word_order: 'x', delete: true }] }).error!.issues);
    expect(unknown.details).not.toHaveProperty('reason');
  });
});
