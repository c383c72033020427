/**
 * SilenceAnalysisStore against a real Postgres: an analysis answers its video's owner only, and
 * only while the video and its transcript are at the versions it was made for; older versions'
 * analyses go when a newer one is stored, a video keeps at most SILENCE_ANALYSES_PER_VIDEO, and
 * they go with their video.
 */
import type { DetectSilenceResponse } from '@wordcut/contracts';
import { gatewayTestDatabase } from '../../../../tools/testing/gateway-database';
import { SILENCE_ANALYSES_PER_VIDEO, SilenceAnalysisStore } from './silence-store';

const database = gatewayTestDatabase(4);
const analyses = database.store(SilenceAnalysisStore);

const video = (ownerId?: string): Promise<string> => database.insertVideo(ownerId);

const answer = (total: number): DetectSilenceResponse => ({
  silences: [],
  speechMetrics: { wordsPerMinute: 120, speechPattern: 'steady', averagePauseDuration: 0.8, suggestedThresholds: { minPauseDuration: 1.2 } },
  summary: { total, recommended: 0, totalDuration: 0, recommendedDuration: 0, estimatedTimeSaved: 0, minPauseDuration: 2, autoThresholdApplied: false, padding: 0.1 },
});
const count = async (id: string) => Number(((await database.ds.query(`SELECT count(*) AS n FROM library.silence_analyses WHERE video_id = $1`, [id])) as { n: string }[])[0]!.n);

describe('SilenceAnalysisStore', () => {
  it("answers the current version's analysis for the same parameters, to the video's owner only", async () => {
    const id = await video();
    await analyses.put(id, 0, 1, 'min=2', answer(3));
    expect(await analyses.current(id, 'owner-a', 'min=2')).toEqual(answer(3));
    expect(await analyses.current(id, 'owner-b', 'min=2')).toBeNull();
    expect(await analyses.current(id, 'owner-a', 'min=1')).toBeNull();
    // a repeat replaces it
    await analyses.put(id, 0, 1, 'min=2', answer(4));
    expect(await analyses.current(id, 'owner-a', 'min=2')).toEqual(answer(4));
  });

  it('answers nothing once the video or its transcript has a new version, and drops older versions when a newer one is stored', async () => {
    const id = await video();
    await analyses.put(id, 0, 1, 'min=2', answer(1));
    await database.ds.query(`UPDATE library.transcripts SET version = 2 WHERE video_id = $1`, [id]);
    expect(await analyses.current(id, 'owner-a', 'min=2')).toBeNull();
    await database.ds.query(`UPDATE library.videos SET edit_version = 1 WHERE id = $1`, [id]);
    await analyses.put(id, 1, 2, 'min=2', answer(2));
    expect(await analyses.current(id, 'owner-a', 'min=2')).toEqual(answer(2));
    expect(await count(id)).toBe(1);
    // a late answer for an old version does not remove the newer one
    await analyses.put(id, 0, 1, 'min=2', answer(9));
    expect(await analyses.current(id, 'owner-a', 'min=2')).toEqual(answer(2));
  });

  it('keeps the newest SILENCE_ANALYSES_PER_VIDEO per video, and none after the video is deleted', async () => {
    const id = await video();
    for (let i = 0; i < SILENCE_ANALYSES_PER_VIDEO + 3; i++) await analyses.put(id, 0, 1, `min=${i}`, answer(i));
    expect(await count(id)).toBe(SILENCE_ANALYSES_PER_VIDEO);
    expect(await analyses.current(id, 'owner-a', `min=${SILENCE_ANALYSES_PER_VIDEO + 2}`)).toEqual(answer(SILENCE_ANALYSES_PER_VIDEO + 2));
    expect(await analyses.current(id, 'owner-a', 'min=0')).toBeNull();
    await database.ds.query(`DELETE FROM library.videos WHERE id = $1`, [id]);
    expect(await count(id)).toBe(0);
  });
});
