import { ErrorCode, type CaptionWarning, type Paragraph, type Transcript, type TranscriptPatch, type Word, type WordDelta } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import { applyWordDeltas, detectFillerWords, normalizeReplacement, TranscriptEditError } from '@wordcut/transcript';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { TranscriptAnswers } from './transcript-answers';

/** What a transcript is built from and written as. */
export interface TranscriptContent {
  languageCode: string;
  words: Word[];
  paragraphs: Paragraph[];
  fillerWords: number[];
  /** what the ingest skipped in the caption file; absent: the transcript's warnings stay */
  warnings?: CaptionWarning[];
}

/** The small answer of a delta PATCH (`Prefer: return=minimal`): the client already holds the words. */
export interface TranscriptPatchSummary {
  id: string;
  videoId: string;
  version: number;
  wordCount: number;
  fillerWords: number[];
  updatedAt: string;
}

interface HeadRow {
  id: string;
  video_id: string;
  version: number;
  language_code: string;
  word_count: number;
  warnings: CaptionWarning[];
  updated_at: Date;
}

type WordRow = [text: string, start: number, end: number, confidence: number, group: number, filler: boolean];

/** Words either side of an edit whose filler flag can change (the rules look one word back and one ahead). */
const FILLER_REACH = 2;

/**
 * Transcripts and their words. Words are rows keyed by (transcript, word_order): GET reads them in
 * order and derives paragraphs (from group_number) and fillerWords (from is_filler); a PATCH of
 * word changes touches only those rows plus the filler flags around them, so its cost does not
 * grow with the transcript. Inserts and deletes renumber, and take the general path.
 * Every write is conditional on the version the client read (409 when stale).
 */
export class TranscriptStore {
  constructor(
    private readonly ds: DataSource,
    private readonly answers: TranscriptAnswers = new TranscriptAnswers(),
  ) {}

  /** Transcript words per video. */
  async wordsByVideo(videoIds: string[]): Promise<Map<string, number>> {
    const rows = (await this.ds.query(
      `SELECT t.video_id, count(w.*)::int AS n FROM library.transcripts t LEFT JOIN library.transcript_words w ON w.transcript_id = t.id WHERE t.video_id = ANY($1::uuid[]) GROUP BY t.video_id`,
      [videoIds],
    )) as { video_id: string; n: number }[];
    return new Map(rows.map((r) => [r.video_id, r.n]));
  }

  /** Transcripts per video (0 or 1). */
  async countByVideo(videoIds: string[]): Promise<Map<string, number>> {
    const rows = (await this.ds.query(`SELECT video_id, count(*)::int AS n FROM library.transcripts WHERE video_id = ANY($1::uuid[]) GROUP BY video_id`, [videoIds])) as { video_id: string; n: number }[];
    return new Map(rows.map((r) => [r.video_id, r.n]));
  }

  /** Replaces the transcript of a video (ingest); keeps the transcript id when one exists. */
  async replaceForVideo(m: EntityManager, videoId: string, c: TranscriptContent): Promise<string> {
    const existing = (await m.query(`SELECT id FROM library.transcripts WHERE video_id = $1 FOR UPDATE`, [videoId])) as { id: string }[];
    const id = existing[0]?.id ?? randomUUID();
    if (existing[0]) {
      await m.query(
        `UPDATE library.transcripts SET version = version + 1, language_code = $2, word_count = $3, warnings = COALESCE($4::jsonb, warnings), updated_at = now() WHERE id = $1`,
        [id, c.languageCode, c.words.length, c.warnings ? JSON.stringify(c.warnings) : null],
      );
    } else {
      await m.query(`INSERT INTO library.transcripts (id, video_id, version, language_code, word_count, warnings) VALUES ($1,$2,1,$3,$4,$5::jsonb)`, [
        id,
        videoId,
        c.languageCode,
        c.words.length,
        JSON.stringify(c.warnings ?? []),
      ]);
    }
    await this.writeWords(m, id, c);
    return id;
  }

  /** The GET answer of a video's transcript, serialised (kept per version: TranscriptAnswers). */
  async getJsonByVideo(videoId: string): Promise<string | null> {
    const heads = (await this.ds.query(`SELECT * FROM library.transcripts WHERE video_id = $1`, [videoId])) as HeadRow[];
    const head = heads[0];
    if (!head) return null;
    const stamp = `${head.version}|${head.updated_at.toISOString()}`;
    const kept = this.answers.get(head.id, stamp);
    if (kept !== null) return kept;
    const json = JSON.stringify(await this.read(head));
    this.answers.set(head.id, stamp, json);
    return json;
  }

  async getByVideo(videoId: string): Promise<Transcript | null> {
    const heads = (await this.ds.query(`SELECT * FROM library.transcripts WHERE video_id = $1`, [videoId])) as HeadRow[];
    return heads[0] ? this.read(heads[0]) : null;
  }

  async get(id: string, m: EntityManager | DataSource = this.ds): Promise<Transcript | null> {
    const heads = (await m.query(`SELECT * FROM library.transcripts WHERE id = $1`, [id])) as HeadRow[];
    return heads[0] ? this.read(heads[0], m) : null;
  }

  /**
   * PATCH /api/transcripts/{id}. `expectedVersion` (body `version` or If-Match) makes it
   * conditional. The video's vttChanged and wordBywordChanged flags are set in the same
   * transaction.
   */
  async patch(id: string, body: TranscriptPatch, expectedVersion: number | undefined, ownerId: string): Promise<TranscriptPatchSummary> {
    return this.ds.transaction(async (m) => {
      const heads = (await m.query(
        `SELECT t.* FROM library.transcripts t JOIN library.videos v ON v.id = t.video_id WHERE t.id = $1 AND v.owner_id = $2 FOR UPDATE OF t`,
        [id, ownerId],
      )) as HeadRow[];
      const head = heads[0];
      if (!head) throw new AppError(404, ErrorCode.NotFound, 'Transcript not found.');
      if (expectedVersion !== undefined && expectedVersion !== head.version) {
        throw new AppError(409, ErrorCode.Conflict, `The transcript changed since you loaded it (version ${expectedVersion}, now ${head.version}). Reload to see the latest.`, {
          currentVersion: head.version,
        });
      }
      try {
        if ('wordDeltas' in body && body.wordDeltas.every((d) => 'changes' in d)) {
          await this.patchWordsInPlace(m, head, body.wordDeltas as Extract<WordDelta, { changes: unknown }>[]);
        } else {
          const current = await this.read(head, m);
          const next =
            'wordDeltas' in body
              ? applyWordDeltas({ words: current.words, paragraphs: current.paragraphs }, body.wordDeltas)
              : normalizeReplacement({ words: body.words, paragraphs: body.paragraphs, fillerWords: body.fillerWords });
          await m.query(`DELETE FROM library.transcript_words WHERE transcript_id = $1`, [id]);
          await this.writeWords(m, id, { languageCode: head.language_code, ...next });
          await m.query(`UPDATE library.transcripts SET word_count = $2 WHERE id = $1`, [id, next.words.length]);
        }
      } catch (err) {
        if (err instanceof TranscriptEditError) throw new AppError(422, ErrorCode.ValidationFailed, err.message, { code: err.code });
        throw err;
      }
      const [updated] = (await m.query(`UPDATE library.transcripts SET version = version + 1, updated_at = now() WHERE id = $1 RETURNING *`, [id])) as [HeadRow[]];
      await m.query(`UPDATE library.videos SET vtt_changed = true, word_byword_changed = true, provider_vtt_upload_status = 'none', updated_at = now() WHERE id = $1`, [head.video_id]);
      const fillers = (await m.query(`SELECT word_order FROM library.transcript_words WHERE transcript_id = $1 AND is_filler ORDER BY word_order`, [id])) as {
        word_order: number;
      }[];
      const row = updated[0]!;
      return {
        id,
        videoId: row.video_id,
        version: row.version,
        wordCount: row.word_count,
        fillerWords: fillers.map((f) => f.word_order),
        updatedAt: row.updated_at.toISOString(),
      };
    });
  }

  /** Word changes only: update those rows, then re-decide filler flags in a small window around each. */
  private async patchWordsInPlace(m: EntityManager, head: HeadRow, deltas: Extract<WordDelta, { changes: unknown }>[]): Promise<void> {
    const orders = deltas.map((d) => d.word_order);
    if (new Set(orders).size !== orders.length) throw new TranscriptEditError('CONFLICTING_DELTAS', 'A word may be changed only once per request.');
    const rows = (await m.query(
      `SELECT word_order, text, start_s, end_s, confidence FROM library.transcript_words WHERE transcript_id = $1 AND word_order = ANY($2::int[])`,
      [head.id, orders],
    )) as { word_order: number; text: string; start_s: number; end_s: number; confidence: number }[];
    const byOrder = new Map(rows.map((r) => [r.word_order, r]));
    const next = deltas.map((d) => {
      const cur = byOrder.get(d.word_order);
      if (!cur) throw new TranscriptEditError('UNKNOWN_WORD', `There is no word ${d.word_order} in this transcript.`);
      const w = { order: d.word_order, text: d.changes.text ?? cur.text, start: d.changes.start ?? cur.start_s, end: d.changes.end ?? cur.end_s, confidence: d.changes.confidence ?? cur.confidence };
      if (w.end < w.start) throw new TranscriptEditError('INVALID_TIMING', `Word ${d.word_order} would end (${w.end}) before it starts (${w.start}).`);
      return w;
    });
    await m.query(
      `UPDATE library.transcript_words w SET text = u.text, start_s = u.start_s, end_s = u.end_s, confidence = u.confidence
         FROM unnest($2::int[], $3::text[], $4::float8[], $5::float8[], $6::real[]) AS u(word_order, text, start_s, end_s, confidence)
        WHERE w.transcript_id = $1 AND w.word_order = u.word_order`,
      [head.id, next.map((w) => w.order), next.map((w) => w.text), next.map((w) => w.start), next.map((w) => w.end), next.map((w) => w.confidence)],
    );
    await this.refreshFillers(m, head.id, orders);
  }

  /** Recomputes is_filler for the words within FILLER_REACH of each changed word. */
  private async refreshFillers(m: EntityManager, transcriptId: string, changed: number[]): Promise<void> {
    const sorted = [...changed].sort((a, b) => a - b);
    const windows: [number, number][] = [];
    for (const o of sorted) {
      const last = windows[windows.length - 1];
      if (last && o - FILLER_REACH * 2 <= last[1]) last[1] = o + FILLER_REACH * 2;
      else windows.push([o - FILLER_REACH * 2, o + FILLER_REACH * 2]);
    }
    for (const [from, to] of windows) {
      const rows = (await m.query(
        `SELECT word_order, text, start_s, end_s, confidence, group_number FROM library.transcript_words
          WHERE transcript_id = $1 AND word_order BETWEEN $2 AND $3 ORDER BY word_order`,
        [transcriptId, from, to],
      )) as { word_order: number; text: string; start_s: number; end_s: number; confidence: number; group_number: number }[];
      const words: Word[] = rows.map((r) => ({ text: r.text, start: r.start_s, end: r.end_s, confidence: r.confidence, group_number: r.group_number, word_order: r.word_order }));
      const flagged = new Set(detectFillerWords(words).map((i) => words[i]!.word_order));
      // only the inner part of the window is decided here: its edges lack their own neighbours
      const decide = rows.filter((r) => r.word_order >= from + FILLER_REACH && r.word_order <= to - FILLER_REACH).map((r) => r.word_order);
      await m.query(
        `UPDATE library.transcript_words w SET is_filler = u.f FROM unnest($2::int[], $3::bool[]) AS u(o, f)
          WHERE w.transcript_id = $1 AND w.word_order = u.o AND w.is_filler IS DISTINCT FROM u.f`,
        [transcriptId, decide, decide.map((o) => flagged.has(o))],
      );
    }
  }

  private async writeWords(m: EntityManager, transcriptId: string, c: TranscriptContent): Promise<void> {
    await m.query(`DELETE FROM library.transcript_words WHERE transcript_id = $1`, [transcriptId]);
    const fillers = new Set(c.fillerWords);
    const CHUNK = 20000;
    for (let from = 0; from < c.words.length; from += CHUNK) {
      const part = c.words.slice(from, from + CHUNK);
      await m.query(
        `INSERT INTO library.transcript_words (transcript_id, word_order, text, start_s, end_s, confidence, group_number, is_filler)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::float8[], $5::float8[], $6::real[], $7::int[], $8::bool[])`,
        [
          transcriptId,
          part.map((_, i) => from + i),
          part.map((w) => w.text),
          part.map((w) => w.start),
          part.map((w) => w.end),
          part.map((w) => w.confidence),
          part.map((w) => w.group_number),
          part.map((_, i) => fillers.has(from + i)),
        ],
      );
    }
  }

  private async read(head: HeadRow, m: EntityManager | DataSource = this.ds): Promise<Transcript> {
    // one JSON text of arrays keeps 30,000-word reads cheap: no per-row objects in the driver,
    // and JSON.parse is native
    const rows = (await m.query(
      `SELECT json_agg(json_build_array(text, start_s, end_s, confidence, group_number, is_filler) ORDER BY word_order)::text AS w
         FROM library.transcript_words WHERE transcript_id = $1`,
      [head.id],
    )) as { w: string | null }[];
    const raw = rows[0]?.w ? (JSON.parse(rows[0].w) as WordRow[]) : [];
    const words: Word[] = new Array(raw.length);
    const fillerWords: number[] = [];
    const paragraphs: Paragraph[] = [];
    let para: Paragraph | undefined;
    for (let i = 0; i < raw.length; i++) {
      const r = raw[i]!;
      const w: Word = { text: r[0], start: r[1], end: r[2], confidence: r[3], group_number: r[4], word_order: i };
      words[i] = w;
      if (r[5]) fillerWords.push(i);
      if (!para || para.groupNumber !== w.group_number) {
        para = { start: w.start, end: w.end, wordIndices: [], groupNumber: w.group_number };
        paragraphs.push(para);
      }
      para.wordIndices.push(i);
      if (w.end > para.end) para.end = w.end;
    }
    return {
      id: head.id,
      videoId: head.video_id,
      version: head.version,
      languageCode: head.language_code,
      words,
      paragraphs,
      fillerWords,
      warnings: head.warnings ?? [],
      updatedAt: head.updated_at.toISOString(),
    };
  }
}
