/** Matroska files built element by element, for tests and the fuzzer: valid ones and crafted hostile ones. */

/** An element ID's bytes (its marker bit included, as written). */
function idBytes(id: number): Buffer {
  const hex = id.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
}

/** A size as an 8-byte EBML integer (null: the unknown size). */
export function sizeBytes(size: number | null): Buffer {
  const out = Buffer.alloc(8);
  if (size === null) {
    out.fill(0xff, 1);
    out[0] = 0x01;
    return out;
  }
  let v = size;
  for (let k = 7; k >= 1; k--) {
    out[k] = v % 256;
    v = Math.floor(v / 256);
  }
  out[0] = 0x01;
  return out;
}

/** An element: ID, size (the payload's length unless given), payload. */
export function el(id: number, payload: Buffer | Buffer[] = [], size?: number | null): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.concat(payload);
  return Buffer.concat([idBytes(id), sizeBytes(size === undefined ? body.length : size), body]);
}

/** An unsigned integer element, in as few bytes as it needs. */
export function uint(id: number, v: number): Buffer {
  const bytes: number[] = [];
  let n = v;
  do {
    bytes.unshift(n % 256);
    n = Math.floor(n / 256);
  } while (n > 0);
  return el(id, Buffer.from(bytes));
}
export const str = (id: number, v: string) => el(id, Buffer.from(v, 'utf8'));

export const MKV = {
  EBML: 0x1a45dfa3,
  DocType: 0x4282,
  DocTypeReadVersion: 0x4285,
  EBMLReadVersion: 0x42f7,
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Seek: 0x4dbb,
  SeekID: 0x53ab,
  SeekPosition: 0x53ac,
  Info: 0x1549a966,
  TimestampScale: 0x2ad7b1,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  CodecID: 0x86,
  CodecPrivate: 0x63a2,
  Cluster: 0x1f43b675,
  Timestamp: 0xe7,
  SimpleBlock: 0xa3,
  Tags: 0x1254c367,
  NextFilename: 0x3e83bb,
  PrevUID: 0x3cb923,
  ContentEncodings: 0x6d80,
  ContentEncoding: 0x6240,
  ContentEncryption: 0x5035,
  Void: 0xec,
} as const;

export function ebmlHeader(docType = 'matroska'): Buffer {
  return el(MKV.EBML, [uint(MKV.EBMLReadVersion, 1), str(MKV.DocType, docType), uint(MKV.DocTypeReadVersion, 2)]);
}

export function track(n: number, codec = 'V_MPEG4/ISO/AVC', extra: Buffer[] = []): Buffer {
  return el(MKV.TrackEntry, [uint(MKV.TrackNumber, n), str(MKV.CodecID, codec), ...extra]);
}

/** A small well-formed file: header, Segment (of `segmentSize`, default its length), Info, Tracks, clusters. */
export function matroskaFile(o: { docType?: string; info?: Buffer[]; tracks?: Buffer[]; beforeClusters?: Buffer[]; clusters?: Buffer[]; after?: Buffer[]; segmentSize?: number | null } = {}): Buffer {
  const children = [
    el(MKV.Info, [uint(MKV.TimestampScale, 1_000_000), ...(o.info ?? [])]),
    el(MKV.Tracks, o.tracks ?? [track(1)]),
    ...(o.beforeClusters ?? []),
    ...(o.clusters ?? [el(MKV.Cluster, [uint(MKV.Timestamp, 0), el(MKV.SimpleBlock, Buffer.alloc(32, 7))])]),
    ...(o.after ?? []),
  ];
  return Buffer.concat([ebmlHeader(o.docType), el(MKV.Segment, children, o.segmentSize)]);
}
