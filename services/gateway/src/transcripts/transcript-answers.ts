/**
 * GET answers of recently read transcripts, serialised, each valid for one version of its
 * transcript (its version and update time): reading 30,000 words again costs a lookup instead of
 * building and serialising every word. Bounded by the characters it holds, least recently used
 * out first. Per gateway process; a stale entry can never be served, since every write moves the
 * version.
 */
export class TranscriptAnswers {
  private readonly entries = new Map<string, { stamp: string; json: string }>();
  private chars = 0;

  constructor(private readonly maxChars = 64 * 1024 * 1024) {}

  get(id: string, stamp: string): string | null {
    const e = this.entries.get(id);
    if (!e || e.stamp !== stamp) return null;
    // most recently used last
    this.entries.delete(id);
    this.entries.set(id, e);
    return e.json;
  }

  set(id: string, stamp: string, json: string): void {
    this.drop(id);
    if (json.length > this.maxChars) return;
    this.entries.set(id, { stamp, json });
    this.chars += json.length;
    for (const [oldest] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.drop(oldest);
    }
  }

  private drop(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    this.chars -= e.json.length;
  }

  get size(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.chars };
  }
}
