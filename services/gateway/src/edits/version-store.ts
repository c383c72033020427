import type { DataSource, EntityManager } from 'typeorm';

/** A row of library.edit_versions: one state of a video's edit. */
export interface VersionRow {
  video_id: string;
  seq: number;
  /** original, edit (text edits kept when the next step began), a render kind, revert */
  kind: string;
  job_id: string | null;
  edit_list: unknown;
  /** null: the original's playback media */
  playback_key: string | null;
  media_version: string;
  processed_filename: string | null;
  duration: number | null;
  render_summary: unknown;
  transcript_key: string;
  transcript_hash: string;
  created_at: Date;
}

export type NewVersion = Omit<VersionRow, 'created_at'>;

/** Edit versions (`library.edit_versions`): the only code that runs SQL on that table. */
export class VersionStore {
  constructor(private readonly ds: DataSource) {}

  /** The version `seq` of a video. */
  async get(videoId: string, seq: number, m: EntityManager | DataSource = this.ds): Promise<VersionRow | null> {
    return ((await m.query(`SELECT * FROM library.edit_versions WHERE video_id = $1 AND seq = $2`, [videoId, seq])) as VersionRow[])[0] ?? null;
  }

  /** The number the next version of a video takes (the caller holds the video's row lock). */
  async nextSeq(m: EntityManager, videoId: string): Promise<number> {
    const [{ n }] = (await m.query(`SELECT COALESCE(max(seq) + 1, 0)::int AS n FROM library.edit_versions WHERE video_id = $1`, [videoId])) as [{ n: number }];
    return n;
  }

  async insert(m: EntityManager, v: NewVersion): Promise<void> {
    await m.query(
      `INSERT INTO library.edit_versions (video_id, seq, kind, job_id, edit_list, playback_key, media_version, processed_filename, duration, render_summary, transcript_key, transcript_hash)
       VALUES ($1,$2,$3,$4,$5::jsonb,$6,$7,$8,$9,$10::jsonb,$11,$12)`,
      [
        v.video_id, v.seq, v.kind, v.job_id, v.edit_list === null ? null : JSON.stringify(v.edit_list), v.playback_key, v.media_version, v.processed_filename, v.duration,
        v.render_summary === null ? null : JSON.stringify(v.render_summary), v.transcript_key, v.transcript_hash,
      ],
    );
  }

  /** The versions of a video, newest first (at most `limit`). */
  async list(videoId: string, limit: number): Promise<VersionRow[]> {
    return (await this.ds.query(`SELECT * FROM library.edit_versions WHERE video_id = $1 ORDER BY seq DESC LIMIT $2`, [videoId, limit])) as VersionRow[];
  }
}
