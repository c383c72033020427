/** The stream URL the player plays, with the media version it belongs to. */
export interface HeldSource {
  version: string;
  url: string | undefined;
}

/**
 * The player keeps its stream URL until the media version changes: a refetched video whose URL
 * was signed again for the same media must not abort playback and load it anew.
 */
export function heldStreamSource(held: HeldSource | null, version: string, url: string | undefined): HeldSource {
  if (held && held.version === version && held.url !== undefined && url !== undefined) return held;
  if (held && held.version === version && held.url === url) return held;
  return { version, url };
}
