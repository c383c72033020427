import type { JobKind } from '@wordcut/contracts';
import type { EditList } from '@wordcut/edit-list';
import type { DataSource, EntityManager } from 'typeorm';

export type RenderState = 'active' | 'applied' | 'failed' | 'cancelled';

export interface RenderRow {
  job_id: string;
  video_id: string;
  kind: JobKind;
  state: RenderState;
  user_id: string | null;
  base_edit_version: number;
  base_edit: unknown;
  new_edit: unknown;
  clip_id: string | null;
}

export interface NewRender {
  jobId: string;
  videoId: string;
  kind: JobKind;
  userId: string;
  baseVersion: number;
  base: EditList;
  next: EditList;
  clipId: string | null;
}

/**
 * Renders of videos and clips (`library.renders`): the only code that runs SQL on that table. One
 * video render per video is active at a time (a partial unique index); clip renders are not held to it.
 */
export class RenderStore {
  constructor(private readonly ds: DataSource) {}

  /** Renders per video and kind, and whether one is still running (a deletion waits for it). */
  async summaryByVideo(videoIds: string[]): Promise<Map<string, { byKind: Record<string, number>; total: number; active: number }>> {
    const rows = (await this.ds.query(
      `SELECT video_id, kind, count(*)::int AS n, count(*) FILTER (WHERE state = 'active')::int AS active FROM library.renders WHERE video_id = ANY($1::uuid[]) GROUP BY video_id, kind`,
      [videoIds],
    )) as { video_id: string; kind: string; n: number; active: number }[];
    const out = new Map<string, { byKind: Record<string, number>; total: number; active: number }>();
    for (const r of rows) {
      const s = out.get(r.video_id) ?? { byKind: {}, total: 0, active: 0 };
      s.byKind[r.kind] = r.n;
      s.total += r.n;
      s.active += r.active;
      out.set(r.video_id, s);
    }
    return out;
  }

  /** Records an active render inside the caller's transaction; a second active video render of a video fails with 23505. */
  async insertActive(m: EntityManager, r: NewRender): Promise<void> {
    await m.query(
      `INSERT INTO library.renders (job_id, video_id, kind, state, user_id, base_edit_version, base_edit, new_edit, clip_id)
       VALUES ($1,$2,$3,'active',$4,$5,$6,$7,$8)`,
      [r.jobId, r.videoId, r.kind, r.userId, r.baseVersion, JSON.stringify(r.base), JSON.stringify(r.next), r.clipId],
    );
  }

  async get(jobId: string): Promise<RenderRow | null> {
    return ((await this.ds.query(`SELECT * FROM library.renders WHERE job_id = $1`, [jobId])) as RenderRow[])[0] ?? null;
  }

  /** The state of a render, locked until the caller's transaction ends. */
  async lockState(m: EntityManager, jobId: string): Promise<RenderState | null> {
    return ((await m.query(`SELECT state FROM library.renders WHERE job_id = $1 FOR UPDATE`, [jobId])) as { state: RenderState }[])[0]?.state ?? null;
  }

  /** The job of the active video render of a video (clips aside), if any. */
  async activeVideoRender(videoId: string): Promise<string | null> {
    const rows = (await this.ds.query(`SELECT job_id FROM library.renders WHERE video_id = $1 AND state = 'active' AND clip_id IS NULL AND kind <> 'clip' LIMIT 1`, [
      videoId,
    ])) as { job_id: string }[];
    return rows[0]?.job_id ?? null;
  }

  /** Whether any render of the video (clips included) is active. */
  async hasActive(videoId: string): Promise<boolean> {
    return ((await this.ds.query(`SELECT 1 FROM library.renders WHERE video_id = $1 AND state = 'active' LIMIT 1`, [videoId])) as unknown[]).length > 0;
  }

  /** Active renders of a user (every kind), for the running-jobs limit. */
  async countActiveForUser(m: EntityManager, userId: string): Promise<number> {
    return Number(((await m.query(`SELECT count(*) AS n FROM library.renders WHERE user_id = $1 AND state = 'active'`, [userId])) as { n: string }[])[0]!.n);
  }

  /** The clip a render makes. */
  async setClip(jobId: string, clipId: string): Promise<void> {
    await this.ds.query(`UPDATE library.renders SET clip_id = $2 WHERE job_id = $1`, [jobId, clipId]);
  }

  /** An active render is applied (inside the caller's transaction when given). */
  async markApplied(jobId: string, m: EntityManager | DataSource = this.ds): Promise<void> {
    await m.query(`UPDATE library.renders SET state = 'applied', finished_at = now() WHERE job_id = $1 AND state = 'active'`, [jobId]);
  }

  /** An active render failed or was cancelled; answers its clip (null for video renders, and when it was not active). */
  async end(jobId: string, state: 'failed' | 'cancelled', error: string): Promise<{ ended: boolean; clipId: string | null }> {
    const [rows] = (await this.ds.query(
      `UPDATE library.renders SET state = $2, error = $3, finished_at = now() WHERE job_id = $1 AND state = 'active' RETURNING clip_id`,
      [jobId, state, error],
    )) as [Array<{ clip_id: string | null }>, number];
    return { ended: rows.length > 0, clipId: rows[0]?.clip_id ?? null };
  }
}
