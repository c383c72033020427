/**
 * TranscriptStore against a real Postgres: transcripts stored as word rows and read back with
 * their paragraphs and fillers, and PATCH with its rules: only the video's owner may write, a
 * stale version answers 409, word changes re-decide the filler flags around them, inserts and
 * deletes renumber, a refused edit writes nothing, and every write marks the captions changed.
 */
import type { Word } from '@wordcut/contracts';
import { randomUUID } from 'node:crypto';
import { gatewayTestDatabase } from '../../../../tools/testing/gateway-database';
import { TranscriptStore, type TranscriptContent } from './transcript-store';
import { rejectedWith } from '../../../../tools/testing/app-error';

const database = gatewayTestDatabase(4);
const transcripts = database.store(TranscriptStore);

const OWNER = 'owner-a';

async function video(ownerId = OWNER): Promise<string> {
  const id = randomUUID();
  await database.ds.query(
    `INSERT INTO library.videos (id, title, original_name, filename, status, vtt_method, language_code, owner_id, provider_vtt_upload_status)
     VALUES ($1, 't', 'o', 'f', 'completed', 'upload', 'en', $2, 'uploaded')`,
    [id, ownerId],
  );
  return id;
}

const w = (text: string, start: number, group: number, order: number): Word => ({ text, start, end: start + 0.4, confidence: 0.9, group_number: group, word_order: order });

/** Two paragraphs: "Hello today we talk" (group 0) and "um about tests" (group 1); "um" is a filler. */
function content(): TranscriptContent {
  const words = [w('Hello', 0, 0, 0), w('today', 0.5, 0, 1), w('we', 1, 0, 2), w('talk', 1.5, 0, 3), w('um', 3, 1, 4), w('about', 3.5, 1, 5), w('tests', 4, 1, 6)];
  return {
    languageCode: 'en',
    words,
    paragraphs: [
      { start: 0, end: 1.9, wordIndices: [0, 1, 2, 3], groupNumber: 0 },
      { start: 3, end: 4.4, wordIndices: [4, 5, 6], groupNumber: 1 },
    ],
    fillerWords: [4],
  };
}

async function stored(): Promise<{ videoId: string; id: string }> {
  const videoId = await video();
  const id = await database.ds.transaction((tx) => transcripts.replaceForVideo(tx, videoId, content()));
  return { videoId, id };
}

const texts = async (id: string) => (await transcripts.get(id))!.words.map((x) => x.text);

describe('storing and reading', () => {
  it('reads back the words in order, with paragraphs from their groups and the stored fillers', async () => {
    const { videoId, id } = await stored();
    const t = (await transcripts.getByVideo(videoId))!;
    expect(t).toMatchObject({ id, videoId, version: 1, languageCode: 'en', fillerWords: [4] });
    expect(t.words).toEqual(content().words);
    expect(t.paragraphs).toEqual(content().paragraphs);
    expect(await transcripts.get(id)).toEqual(t);
  });

  it('answers null for a video without a transcript and for an unknown id', async () => {
    expect(await transcripts.getByVideo(await video())).toBeNull();
    expect(await transcripts.get(randomUUID())).toBeNull();
  });

  it("replaces a video's transcript keeping its id and moving its version on", async () => {
    const { videoId, id } = await stored();
    const again = await database.ds.transaction((tx) => transcripts.replaceForVideo(tx, videoId, { languageCode: 'de', words: [w('Hallo', 0, 0, 0)], paragraphs: [], fillerWords: [] }));
    expect(again).toBe(id);
    const t = (await transcripts.getByVideo(videoId))!;
    expect(t).toMatchObject({ id, version: 2, languageCode: 'de', fillerWords: [] });
    expect(t.words.map((x) => x.text)).toEqual(['Hallo']);
  });
});

describe('caption warnings', () => {
  it('are stored with the ingest transcript, kept by a replace that names none, and replaced by one that does', async () => {
    const videoId = await video();
    const warnings = [{ line: 6, message: "cue at line 6 skipped: timestamp '00:00:00..000' is not valid" }];
    await database.ds.transaction((tx) => transcripts.replaceForVideo(tx, videoId, { ...content(), warnings }));
    expect((await transcripts.getByVideo(videoId))!.warnings).toEqual(warnings);
    await database.ds.transaction((tx) => transcripts.replaceForVideo(tx, videoId, content()));
    expect((await transcripts.getByVideo(videoId))!.warnings).toEqual(warnings);
    await database.ds.transaction((tx) => transcripts.replaceForVideo(tx, videoId, { ...content(), warnings: [] }));
    expect((await transcripts.getByVideo(videoId))!.warnings).toEqual([]);
  });
});

describe('PATCH', () => {
  it('answers 404 to anyone but the owner of the video, and for an unknown id, writing nothing', async () => {
    const { id } = await stored();
    const body = { wordDeltas: [{ word_order: 1, changes: { text: 'tomorrow' } }] };
    const e = await rejectedWith(transcripts.patch(id, body, undefined, 'owner-b'));
    expect(e).toMatchObject({ statusCode: 404, message: 'Transcript not found.' });
    expect((await rejectedWith(transcripts.patch(randomUUID(), body, undefined, OWNER))).statusCode).toBe(404);
    expect(await transcripts.get(id)).toMatchObject({ version: 1 });
    expect((await texts(id))[1]).toBe('today');
  });

  it('answers 409 with the current version when the client read an older one', async () => {
    const { id } = await stored();
    await transcripts.patch(id, { wordDeltas: [{ word_order: 1, changes: { text: 'tomorrow' } }] }, 1, OWNER);
    const e = await rejectedWith(transcripts.patch(id, { wordDeltas: [{ word_order: 2, changes: { text: 'they' } }] }, 1, OWNER));
    expect(e.statusCode).toBe(409);
    expect(e.message).toBe('The transcript changed since you loaded it (version 1, now 2). Reload to see the latest.');
    expect(e.details).toEqual({ currentVersion: 2 });
    expect((await texts(id))[2]).toBe('we');
  });

  it('changes words in place, re-deciding fillers around them, and marks the captions changed', async () => {
    const { videoId, id } = await stored();
    const summary = await transcripts.patch(
      id,
      {
        wordDeltas: [
          { word_order: 4, changes: { text: 'all' } },
          { word_order: 2, changes: { text: 'uh', start: 1.1, end: 1.3 } },
        ],
      },
      undefined,
      OWNER,
    );
    expect(summary).toEqual({ id, videoId, version: 2, wordCount: 7, fillerWords: [2], updatedAt: expect.any(String) });
    const t = (await transcripts.get(id))!;
    expect(t.words[2]).toMatchObject({ text: 'uh', start: 1.1, end: 1.3, group_number: 0, word_order: 2 });
    expect(t.words[4]).toMatchObject({ text: 'all', start: 3 });
    expect(t.fillerWords).toEqual([2]);
    const [flags] = (await database.ds.query(`SELECT vtt_changed, word_byword_changed, provider_vtt_upload_status FROM library.videos WHERE id = $1`, [videoId])) as [Record<string, unknown>];
    expect(flags).toEqual({ vtt_changed: true, word_byword_changed: true, provider_vtt_upload_status: 'none' });
  });

  it('deletes and inserts words, renumbering them', async () => {
    const { id } = await stored();
    const summary = await transcripts.patch(
      id,
      {
        wordDeltas: [
          { word_order: 0, delete: true },
          { word_order: 6, insertAfter: [{ text: 'today', start: 4.5, end: 4.9, confidence: 0.8 }] },
        ],
      },
      1,
      OWNER,
    );
    expect(summary).toMatchObject({ version: 2, wordCount: 7 });
    const t = (await transcripts.get(id))!;
    expect(t.words.map((x) => x.text)).toEqual(['today', 'we', 'talk', 'um', 'about', 'tests', 'today']);
    expect(t.words.map((x) => x.word_order)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(t.fillerWords).toEqual([3]);
  });

  it('replaces the whole transcript when sent whole', async () => {
    const { id } = await stored();
    const words = [w('Hello', 0, 0, 0), w('hmm', 0.5, 0, 1), w('world', 1, 0, 2)];
    const summary = await transcripts.patch(id, { words }, undefined, OWNER);
    expect(summary).toMatchObject({ version: 2, wordCount: 3, fillerWords: [1] });
    expect(await texts(id)).toEqual(['Hello', 'hmm', 'world']);
  });

  it('answers 422 with the edit error code for an edit that cannot apply, and writes nothing', async () => {
    const { videoId, id } = await stored();
    const cases: Array<[unknown, string]> = [
      [{ wordDeltas: [{ word_order: 99, changes: { text: 'x' } }] }, 'UNKNOWN_WORD'],
      [{ wordDeltas: [{ word_order: 1, changes: { text: 'a' } }, { word_order: 1, changes: { text: 'b' } }] }, 'CONFLICTING_DELTAS'],
      [{ wordDeltas: [{ word_order: 1, changes: { start: 2, end: 1 } }] }, 'INVALID_TIMING'],
    ];
    for (const [body, code] of cases) {
      const e = await rejectedWith(transcripts.patch(id, body as never, undefined, OWNER));
      expect(e.statusCode).toBe(422);
      expect(e.details).toEqual({ code });
    }
    const deleteUnknown = await rejectedWith(transcripts.patch(id, { wordDeltas: [{ word_order: 99, delete: true }] }, undefined, OWNER));
    expect(deleteUnknown.statusCode).toBe(422);
    expect(await transcripts.get(id)).toMatchObject({ version: 1, words: content().words, fillerWords: [4] });
    const [flags] = (await database.ds.query(`SELECT vtt_changed FROM library.videos WHERE id = $1`, [videoId])) as [{ vtt_changed: boolean }];
    expect(flags.vtt_changed).toBe(false);
  });
});
