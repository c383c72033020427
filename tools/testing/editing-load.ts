/**
 * Editing load: many editors, each on a video of their own, saving small word edits one after
 * another through the gateway (PATCH /api/transcripts/{id} with the version they hold, as the
 * editor does). Used by the load system test (no errors, every save lands once) and the benchmark
 * (latency figures).
 */
import { buildTranscriptFromVtt } from '@wordcut/transcript';
import { DataSource } from 'typeorm';
import { gatewayDataSource } from '../../services/gateway/src/data-source';
import { TranscriptStore } from '../../services/gateway/src/transcripts/transcript-store';
import { VideoStore } from '../../services/gateway/src/videos/video-store';
import { randomTextEdit, seededRandom, syntheticVtt } from './transcript-data';
import { bearer } from './identity';
import { seedVideoWithTranscript } from './seed-video';

export interface LoadEditor {
  token: string;
  ownerId: string;
  videoId: string;
  transcriptId: string;
  wordCount: number;
  /** the version this editor holds (advanced by every save that lands) */
  version: number;
}

export interface SaveOutcome {
  editor: number;
  status: number;
  ms: number;
  /** the error body of a refused save */
  error?: string;
}

export interface EditingLoadResult {
  saves: SaveOutcome[];
  /** per editor: the text each word was last set to, for checking what was stored */
  lastTexts: Array<Map<number, string>>;
  wallMs: number;
}

/**
 * Writes one video with a synthetic transcript of `words` words for each owner, straight into the
 * gateway's database with its own stores (what an upload would leave, without the media).
 */
export async function seedEditors(o: {
  databaseUrl: string;
  owners: Array<{ token: string; ownerId: string }>;
  words: number;
}): Promise<LoadEditor[]> {
  const ds: DataSource = gatewayDataSource(o.databaseUrl, 2);
  await ds.initialize();
  try {
    const videos = new VideoStore(ds);
    const transcripts = new TranscriptStore(ds);
    const built = buildTranscriptFromVtt(syntheticVtt(o.words, 7));
    const out: LoadEditor[] = [];
    for (const owner of o.owners) {
      const { videoId, transcriptId } = await seedVideoWithTranscript({ ds, videos, transcripts }, { ownerId: owner.ownerId, title: 'load test', built });
      out.push({ ...owner, videoId, transcriptId, wordCount: built.words.length, version: 1 });
    }
    return out;
  } finally {
    await ds.destroy();
  }
}

/**
 * Every editor saves `savesPerEditor` edits of 1-3 word texts in turn (`thinkMs` between a save's
 * answer and the next), all editors at once. A refused save is recorded and the editor goes on
 * from the version it holds.
 */
export async function runEditingLoad(o: { gatewayUrl: string; editors: LoadEditor[]; savesPerEditor: number; thinkMs: number; seed?: number }): Promise<EditingLoadResult> {
  const saves: SaveOutcome[] = [];
  const lastTexts = o.editors.map(() => new Map<number, string>());
  const t0 = performance.now();
  await Promise.all(
    o.editors.map(async (e, i) => {
      const rng = seededRandom((o.seed ?? 1) * 1000 + i);
      // spread the editors' first saves over one think time
      await sleep(rng() * o.thinkMs);
      for (let k = 0; k < o.savesPerEditor; k++) {
        const deltas = randomTextEdit(rng, e.wordCount);
        const started = performance.now();
        const res = await fetch(`${o.gatewayUrl}/api/transcripts/${e.transcriptId}`, {
          method: 'PATCH',
          headers: { ...bearer(e.token), 'content-type': 'application/json', prefer: 'return=minimal' },
          body: JSON.stringify({ version: e.version, wordDeltas: deltas }),
        });
        const body = await res.text();
        const ms = performance.now() - started;
        if (res.status === 200) {
          e.version = (JSON.parse(body) as { version: number }).version;
          for (const d of deltas) lastTexts[i]!.set(d.word_order, d.changes.text!);
          saves.push({ editor: i, status: 200, ms });
        } else saves.push({ editor: i, status: res.status, ms, error: body.slice(0, 300) });
        await sleep(o.thinkMs);
      }
    }),
  );
  return { saves, lastTexts, wallMs: performance.now() - t0 };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
