/**
 * The largest lists a request body may carry. A request over one answers 400 naming the list and
 * its limit; nothing of it is done. Each bound is what the product needs with room to spare.
 */

/** Ranges in one edit request: cuts, silences to remove, muted regions (a 3-hour talk has ~2,000 pauses). */
export const MAX_EDIT_RANGES = 5000;
/** Filler words removed at once (word indices). */
export const MAX_FILLER_WORDS = 50_000;
/** Entries of a reorder (the editor sends every paragraph: ~1,200 in a 3-hour talk). */
export const MAX_REORDER_ENTRIES = 5000;
/**
 * Blocks a reorder may place apart: runs of entries that stay together as in the source. Each
 * block is one more input of the render, so a reorder moves at most this many.
 */
export const MAX_REORDER_BLOCKS = 32;
/** Word deltas in one transcript PATCH. */
export const MAX_WORD_DELTAS = 20_000;
/** New words one delta inserts. */
export const MAX_INSERTED_WORDS = 10_000;
/** Clips published in one export. */
export const MAX_EXPORT_CLIPS = 100;
/** Video, error or webhook ids in one bulk deletion (operator dashboard). */
export const MAX_BULK_DELETE = 100;
