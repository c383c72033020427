import { ErrorCode, MAX_REORDER_BLOCKS, type ReorderRequest, type Transcript, type Word } from '@wordcut/contracts';
import type { TimeRange } from '@wordcut/edit-list';
import { AppError } from '@wordcut/platform';

/** How far (s) a segment's edges may be from its words' times before the transcript counts as changed. */
const WORD_TIME_TOLERANCE = 0.05;

const outdated = () => new AppError(409, ErrorCode.OutdatedTranscript, 'The transcript changed since it was loaded. Please refresh the page and reorder again.');

/**
 * Blocks of a reorder: runs of ranges that follow each other in the new order as they did in the
 * source. Each block is one more piece the render joins.
 */
export function reorderBlocks(order: readonly TimeRange[]): number {
  if (order.length === 0) return 0;
  const rank = new Map<number, number>();
  order
    .map((r, i) => ({ start: r.start, i }))
    .sort((a, b) => a.start - b.start || a.i - b.i)
    .forEach((r, k) => rank.set(r.i, k));
  let blocks = 1;
  for (let i = 1; i < order.length; i++) if (rank.get(i) !== rank.get(i - 1)! + 1) blocks++;
  return blocks;
}

/**
 * The source ranges of a reorder request, in their new order, on the current version's timeline:
 * by paragraph group numbers or by segments whose words must still be where the client saw them.
 * 409 when the transcript changed (its version, from the body or `If-Match`, or its paragraphs);
 * 422 when nothing moves or when it places more than MAX_REORDER_BLOCKS blocks apart.
 */
export function reorderRanges(body: ReorderRequest, ifMatch: string | undefined, transcript: Pick<Transcript, 'paragraphs' | 'version'>, words: readonly Word[], duration: number): TimeRange[] {
  const expected = body.transcriptVersion ?? (ifMatch ? Number(ifMatch.replace(/[^0-9]/g, '')) : undefined);
  if (expected !== undefined && expected !== transcript.version) throw outdated();
  const order = body.groupOrder ? byGroups(body.groupOrder, transcript, words) : bySegments(body.spec!.segments, words, duration);
  const unchanged = order.every((r, i) => i === 0 || r.start >= order[i - 1]!.start);
  if (unchanged) throw new AppError(422, ErrorCode.ValidationFailed, 'No changes detected');
  const blocks = reorderBlocks(order);
  if (blocks > MAX_REORDER_BLOCKS) {
    throw new AppError(422, ErrorCode.ValidationFailed, `This reorder moves ${blocks} blocks apart; at most ${MAX_REORDER_BLOCKS} can be moved in one reorder. Move fewer paragraphs, apply, then move the rest.`, {
      reason: 'TOO_MANY_BLOCKS',
      blocks,
      limit: MAX_REORDER_BLOCKS,
    });
  }
  return order;
}

function byGroups(groupOrder: readonly number[], transcript: Pick<Transcript, 'paragraphs'>, words: readonly Word[]): TimeRange[] {
  const groups = transcript.paragraphs.map((p) => p.groupNumber);
  const same = groups.length === groupOrder.length && [...groupOrder].sort((x, y) => x - y).join() === [...groups].sort((x, y) => (x ?? 0) - (y ?? 0)).join();
  if (!same) throw outdated();
  const byGroup = new Map(transcript.paragraphs.map((p) => [p.groupNumber, p]));
  return groupOrder.map((g) => {
    const p = byGroup.get(g)!;
    return { start: words[p.wordIndices[0]!]!.start, end: words[p.wordIndices[p.wordIndices.length - 1]!]!.end };
  });
}

function bySegments(segments: NonNullable<ReorderRequest['spec']>['segments'], words: readonly Word[], duration: number): TimeRange[] {
  return segments.map((s) => {
    if (s.wordIndices && s.wordIndices.length > 0) {
      const first = words[s.wordIndices[0]!];
      const last = words[s.wordIndices[s.wordIndices.length - 1]!];
      if (!first || !last || Math.abs(first.start - s.start) > WORD_TIME_TOLERANCE || Math.abs(last.end - s.end) > WORD_TIME_TOLERANCE) throw outdated();
    }
    return { start: Math.max(0, s.start), end: Math.min(duration, s.end) };
  });
}
