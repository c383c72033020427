/**
 * What a sentence says about the talk around it: it announces a structure ("there are three steps",
 * "the one thing to remember"), it is a sign-off or a notice of logistics (never a moment of its
 * own), or it turns on a contrast ("not X but Y", "X without Y is Z"). English only.
 */

/** A sentence that announces what follows: a list of `count` items, or a key line. */
export interface Announcement {
  kind: 'list' | 'key';
  /** the words that announce it, as spoken (lowercase) */
  phrase: string;
  /** items announced ('three steps': 3), when said */
  count: number | null;
}

const COUNTS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, a: 0, some: 0, few: 0, several: 0 };
const ITEMS = 'steps|things|ways|reasons|points|rules|tips|lessons|ideas|questions|parts|stages|principles|habits|mistakes|changes|freedoms|essentials|keys';
const LIST_ANNOUNCEMENTS: readonly RegExp[] = [
  new RegExp(`\\b(two|three|four|five|six|seven|eight|nine|ten|\\d+|a few|several)(?: [a-z]+){0,2} (${ITEMS})\\b`),
  /\bhere(?:'s| is| are) (?:how|what you do|what to do|the plan|the process)\b/,
  /\b(?:this|that) is how (?:you|we|to)\b/,
  /\bhow to [a-z]+ (?:it|this|one)\b.*:/,
];
const KEY_ANNOUNCEMENTS: readonly RegExp[] = [
  /\b(?:the|one) (?:one )?(?:thing|lesson|idea|point|message) (?:to|i want you to|you should|worth) (?:remember|take away|keep|carry)/,
  /\bif (?:there is|there's|you remember|you take away) (?:only )?one thing\b/,
  /\b(?:remember|never forget) this\b/,
  /\bthe (?:whole )?point is this\b/,
  /\bit (?:is|comes down to) this\b[.:]?$/,
];

/** The structure a sentence announces, from its lowercase text, or null. */
export function announcementOf(text: string): Announcement | null {
  const key = firstMatch(text, KEY_ANNOUNCEMENTS);
  if (key) return { kind: 'key', phrase: key, count: null };
  const t = text.toLowerCase().replace(/’/g, "'");
  for (const re of LIST_ANNOUNCEMENTS) {
    const m = re.exec(t);
    if (m) {
      const n = m[1] ? (COUNTS[m[1].replace(/^a few$/, 'few')] ?? Number(m[1])) : NaN;
      return { kind: 'list', phrase: m[0], count: Number.isFinite(n) && n > 0 ? n : null };
    }
  }
  return null;
}

const CLOSINGS: readonly RegExp[] = [
  /\bthank(?:s| you)(?: all| everyone| so much| very much)?(?: for (?:listening|watching|coming|your time|your attention|joining|being here))?\b/,
  /\bsee you (?:all |there |next |soon|at|on|then)/,
  /\b(?:that is|that's|this is) (?:all|everything|it) (?:for|from)\b/,
  /^(?:that is|that's) (?:all|everything)\b/,
  /\b(?:welcome|welcome back) to\b/,
  /^(?:hello|hi|good (?:morning|afternoon|evening)|goodbye|bye)\b/,
  /\b(?:have a (?:good|great|nice) (?:day|week|weekend|evening))\b/,
  /\b(?:let's|let us) get started\b/,
  /\bi will go through\b/,
];

/** The lowercase text's first match among `patterns`, or null. */
function firstMatch(text: string, patterns: readonly RegExp[]): string | null {
  const t = text.toLowerCase().replace(/’/g, "'");
  for (const re of patterns) {
    const m = re.exec(t);
    if (m) return m[0];
  }
  return null;
}

/** A greeting, sign-off or housekeeping line, or null. */
export const closingOf = (text: string): string | null => firstMatch(text, CLOSINGS);

/** Things of a building or a calendar that notices are about. */
const PLACES = new Set([
  'room', 'rooms', 'desk', 'floor', 'door', 'doors', 'parking', 'car', 'lift', 'lifts', 'elevator', 'kitchen', 'cafe', 'café', 'canteen',
  'printer', 'printers', 'storage', 'shelf', 'shelves', 'noticeboard', 'corridor', 'entrance', 'reception', 'building', 'hall', 'bus',
  'spaces', 'machine', 'lights', 'toilets', 'key', 'keys', 'badge', 'badges', 'wifi', 'password', 'fridge', 'lockers', 'locker', 'pool',
  'garden', 'stall', 'tables', 'fair', 'parcel', 'parcels', 'post', 'stairs', 'office', 'offices', 'website', 'newsletter', 'timetable',
]);
const WHEN = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|january|february|march|april|may|june|july|august|september|october|november|december|tomorrow|tonight|today|next (?:week|month|term|year)|this (?:week|month|term)|from now on|every (?:day|week|month|morning|evening|friday|monday)|o'clock|\d{1,2}(?::\d\d)?\s?(?:am|pm)|after (?:six|seven|eight|nine|ten|five|four|\d+)|at (?:six|seven|eight|nine|ten|noon|midnight|\d+))\b/;
const NOTICE_VERBS = /\b(?:moved|moves|moving|closes|closed|close|opens|open|reopens|replaced|repaired|fixed|installed|booked|book|cleared|locked|painted|cancelled|canceled|postponed|available|collected|delivered|return|returned|planned|meets|starts|begins|now has|now have|has moved|will move)\b/;

/** A notice of logistics (where things are, what opens or moves when), or null: a room, a time and a change. */
export function logisticsOf(text: string): string | null {
  const t = text.toLowerCase().replace(/’/g, "'");
  const words = t.split(/[^a-z0-9'é:]+/).filter(Boolean);
  const place = words.find((w) => PLACES.has(w));
  if (!place) return null;
  const when = WHEN.exec(t);
  const change = NOTICE_VERBS.exec(t);
  const counted = /\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|fifty|hundred|\d+) (?:more |new |extra )?[a-z]+/.exec(t);
  if (when || (change && counted) || (change && words.length <= 14)) return place;
  return null;
}

const CONTRASTS: readonly RegExp[] = [
  /\bwithout [a-z' ]{2,40}? (?:is|are) (?:just|only|merely|nothing but|simply)\b/,
  /\b(?:is|are|was) not [a-z' ,]{2,40}?[,;]? (?:but|it is|it's|rather)\b/,
  /\bnot (?:the|a|an|by|in|for|because|what)\b[^.;]{2,60}\bbut\b/,
  /\bask not\b/,
  /\bthe only [a-z ]{2,30}? is\b/,
  /\bnot [a-z' ]{2,30}?, (?:but|nor)\b/,
  /\b(?:less|more) [a-z]+ (?:and|,) (?:less|more) [a-z]+\b/,
];

/** The words of a contrast or turn the sentence makes, or null. */
export const contrastOf = (text: string): string | null => firstMatch(text, CONTRASTS);

const CLAUSE_LEADS_SKIPPED = new Set(['and', 'but', 'or', 'nor', 'so']);

/**
 * Parallel clauses (anaphora, a tricolon): three or more clauses opening with the same word
 * ("with malice toward none, with charity for all, with firmness ..."), or that word, or null.
 */
export function parallelOf(text: string): string | null {
  const clauses = text
    .toLowerCase()
    .replace(/’/g, "'")
    .split(/[,;:—–]+/)
    .map((c) => c.trim().split(/\s+/).filter((w) => w && !CLAUSE_LEADS_SKIPPED.has(w)))
    .filter((c) => c.length > 0);
  const leads = new Map<string, number>();
  for (const c of clauses) {
    const lead = c[0]!.replace(/[^a-z']/g, '');
    if (lead.length > 1 || lead === 'a') leads.set(lead, (leads.get(lead) ?? 0) + 1);
  }
  for (const [lead, n] of leads) if (n >= 3) return lead;
  return null;
}
