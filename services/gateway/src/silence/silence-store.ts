import type { DetectSilenceResponse } from '@wordcut/contracts';
import type { DataSource } from 'typeorm';

/** Analyses kept per video beyond the current version's: older parameter sets give way to newer ones. */
export const SILENCE_ANALYSES_PER_VIDEO = 10;

/**
 * Pause analyses (`library.silence_analyses`): the only code that runs SQL on that table. An
 * analysis is keyed by its video's edit version, its transcript's version and the parameters that
 * change the answer, and is read through its video's owner, so anyone else's answers nothing.
 */
export class SilenceAnalysisStore {
  constructor(private readonly ds: DataSource) {}

  /** Silence analyses per video. */
  async countByVideo(videoIds: string[]): Promise<Map<string, number>> {
    const rows = (await this.ds.query(`SELECT video_id, count(*)::int AS n FROM library.silence_analyses WHERE video_id = ANY($1::uuid[]) GROUP BY video_id`, [videoIds])) as { video_id: string; n: number }[];
    return new Map(rows.map((r) => [r.video_id, r.n]));
  }

  /** The stored analysis of the video's current version and transcript for `params`, when `ownerId` owns the video. */
  async current(videoId: string, ownerId: string, params: string): Promise<DetectSilenceResponse | null> {
    const rows = (await this.ds.query(
      `SELECT a.analysis FROM library.silence_analyses a
         JOIN library.videos v ON v.id = a.video_id AND v.owner_id = $2 AND v.edit_version = a.edit_version
         JOIN library.transcripts t ON t.video_id = a.video_id AND t.version = a.transcript_version
        WHERE a.video_id = $1 AND a.params = $3`,
      [videoId, ownerId, params],
    )) as { analysis: DetectSilenceResponse }[];
    return rows[0]?.analysis ?? null;
  }

  /**
   * Stores an analysis (a repeat replaces it); the video's analyses of older versions go, and of the
   * rest only the newest SILENCE_ANALYSES_PER_VIDEO stay.
   */
  async put(videoId: string, editVersion: number, transcriptVersion: number, params: string, analysis: DetectSilenceResponse): Promise<void> {
    await this.ds.transaction(async (m) => {
      await m.query(
        `INSERT INTO library.silence_analyses (video_id, edit_version, transcript_version, params, analysis) VALUES ($1,$2,$3,$4,$5::jsonb)
         ON CONFLICT (video_id, edit_version, transcript_version, params) DO UPDATE SET analysis = EXCLUDED.analysis, created_at = now()`,
        [videoId, editVersion, transcriptVersion, params, JSON.stringify(analysis)],
      );
      await m.query(`DELETE FROM library.silence_analyses WHERE video_id = $1 AND (edit_version < $2 OR (edit_version = $2 AND transcript_version < $3))`, [
        videoId,
        editVersion,
        transcriptVersion,
      ]);
      await m.query(
        `DELETE FROM library.silence_analyses WHERE video_id = $1 AND (edit_version, transcript_version, params) NOT IN (
           SELECT edit_version, transcript_version, params FROM library.silence_analyses WHERE video_id = $1 ORDER BY created_at DESC, params LIMIT $2)`,
        [videoId, SILENCE_ANALYSES_PER_VIDEO],
      );
    });
  }
}
