import type { KeyMoment, KeyMomentSource } from '@wordcut/contracts';
import type { DataSource } from 'typeorm';

/** The stored moments of a video version, in their order, and when they were found. */
export interface StoredKeyMoments {
  moments: KeyMoment[];
  analysedAt: string;
  source: KeyMomentSource;
}

/** A stored moment and what it was found on. */
export interface OwnedKeyMoment {
  moment: KeyMoment;
  videoId: string;
  editVersion: number;
}

/**
 * Key moments (`library.key_moments`): the only code that runs SQL on that table. A video keeps the
 * moments of one analysis, keyed by its edit version, its transcript's version and the rules'
 * parameters, read through its video's owner, so anyone else's request finds nothing.
 */
export class KeyMomentStore {
  constructor(private readonly ds: DataSource) {}

  /** Key moment rows per video, every version kept. */
  async countByVideo(videoIds: string[]): Promise<Map<string, number>> {
    const rows = (await this.ds.query(`SELECT video_id, count(*)::int AS n FROM library.key_moments WHERE video_id = ANY($1::uuid[]) GROUP BY video_id`, [videoIds])) as { video_id: string; n: number }[];
    return new Map(rows.map((r) => [r.video_id, r.n]));
  }

  /** The moments of the video's current version and transcript for `params`, when `ownerId` owns the video; null when none are stored. */
  async current(videoId: string, ownerId: string, params: string): Promise<StoredKeyMoments | null> {
    const rows = (await this.ds.query(
      `SELECT m.id, m.moment, m.source, m.created_at FROM library.key_moments m
         JOIN library.videos v ON v.id = m.video_id AND v.owner_id = $2 AND v.edit_version = m.edit_version
         JOIN library.transcripts t ON t.video_id = m.video_id AND t.version = m.transcript_version
        WHERE m.video_id = $1 AND m.params = $3
        ORDER BY m.position`,
      [videoId, ownerId, params],
    )) as { id: string; moment: Omit<KeyMoment, 'id'>; source: KeyMomentSource; created_at: Date }[];
    if (rows.length === 0) return null;
    return { moments: rows.map((r) => ({ ...r.moment, id: r.id })), analysedAt: rows[0]!.created_at.toISOString(), source: rows[0]!.source };
  }

  /** One moment of one of `ownerId`'s videos, with the video and the edit version it was found on; null for anyone else's or none. */
  async owned(momentId: string, ownerId: string): Promise<OwnedKeyMoment | null> {
    const rows = (await this.ds.query(
      `SELECT m.id, m.video_id, m.edit_version, m.moment FROM library.key_moments m
         JOIN library.videos v ON v.id = m.video_id AND v.owner_id = $2
        WHERE m.id = $1`,
      [momentId, ownerId],
    )) as { id: string; video_id: string; edit_version: number; moment: Omit<KeyMoment, 'id'> }[];
    const row = rows[0];
    return row ? { moment: { ...row.moment, id: row.id }, videoId: row.video_id, editVersion: row.edit_version } : null;
  }

  /**
   * Stores the moments of one analysis in their order, and which analyser found them, and answers
   * what is stored: the first analysis of a version stays (a concurrent one answers it instead of its
   * own), an analysis of an older version than the stored one is not kept, and the video's moments of
   * older versions or other parameters go.
   */
  async put(videoId: string, editVersion: number, transcriptVersion: number, params: string, moments: readonly KeyMoment[], source: KeyMomentSource): Promise<StoredKeyMoments> {
    return this.ds.transaction(async (m) => {
      // one writer per video at a time
      await m.query(`SELECT 1 FROM library.videos WHERE id = $1 FOR UPDATE`, [videoId]);
      const [{ now }] = (await m.query(`SELECT now() AS now`)) as [{ now: Date }];
      const kept = (await m.query(
        `SELECT id, moment, source, created_at, edit_version, transcript_version, params FROM library.key_moments WHERE video_id = $1 ORDER BY position`,
        [videoId],
      )) as { id: string; moment: Omit<KeyMoment, 'id'>; source: KeyMomentSource; created_at: Date; edit_version: number; transcript_version: number; params: string }[];
      const same = kept.filter((r) => r.edit_version === editVersion && r.transcript_version === transcriptVersion && r.params === params);
      if (same.length > 0) return { moments: same.map((r) => ({ ...r.moment, id: r.id })), analysedAt: same[0]!.created_at.toISOString(), source: same[0]!.source };
      const newer = kept.some((r) => r.edit_version > editVersion || (r.edit_version === editVersion && r.transcript_version > transcriptVersion));
      if (newer) return { moments: [...moments], analysedAt: now.toISOString(), source };
      await m.query(`DELETE FROM library.key_moments WHERE video_id = $1`, [videoId]);
      for (const [position, { id, ...moment }] of moments.entries()) {
        await m.query(
          `INSERT INTO library.key_moments (id, video_id, edit_version, transcript_version, params, position, moment, source, created_at) VALUES ($1,$2,$3,$4,$5,$6,$7::jsonb,$8,$9)`,
          [id, videoId, editVersion, transcriptVersion, params, position, JSON.stringify(moment), source, now],
        );
      }
      return { moments: [...moments], analysedAt: now.toISOString(), source };
    });
  }
}
