/**
 * The sandbox provider's video library: the videos its users have (demo videos opened through
 * `/open`, clones, clips uploaded by WordCut), the sessions that edit them, and the files uploaded
 * into them. In memory; the uploaded bytes are files in the sandbox's temp directory.
 */
import { escapeHtml } from './http';

export const FILE_KINDS = ['video', 'vtt', 'wordByword'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
export type VideoKind = 'original' | 'clone' | 'clip';

export interface LibraryFile {
  uploadId: string;
  bytes: number;
  /** hex sha256 of the stored bytes */
  sha256: string;
  contentType: string | null;
  uploadedAt: string;
}

export interface LibraryVideo {
  videoId: string;
  /** the latest session opened on it (a clip: the session that uploaded it) */
  sessionId: string;
  sessions: string[];
  title: string;
  kind: VideoKind;
  isClone: boolean;
  /** the provider user (token `sub`) */
  owner: string;
  /** a clone's source, a clip's parent video */
  sourceVideoId: string | null;
  createdAt: string;
  /** where the provider serves the original media (what a token's download URLs name) */
  media: { videoUrl?: string; vttUrl?: string; wordBywordUrl?: string };
  files: Partial<Record<FileKind, LibraryFile>>;
  clips: { videoId: string; title: string }[];
}

/** A stored file and where its bytes are. */
export type StoredFile = LibraryFile & { path: string };
type StoredVideo = Omit<LibraryVideo, 'files'> & { files: Partial<Record<FileKind, StoredFile>> };

export interface NewVideo {
  videoId: string;
  sessionId: string;
  title: string;
  kind: VideoKind;
  owner: string;
  sourceVideoId?: string | null;
  media?: LibraryVideo['media'];
}

export class Library {
  private videos = new Map<string, StoredVideo>();
  /** session id → video id */
  private sessions = new Map<string, string>();

  /**
   * Records a session on a video, creating the video when it is new. A session names one video;
   * opening an existing video again adds the session to it.
   */
  openSession(v: NewVideo): LibraryVideo {
    let video = this.videos.get(v.videoId);
    if (!video) {
      video = {
        videoId: v.videoId,
        sessionId: v.sessionId,
        sessions: [],
        title: v.title,
        kind: v.kind,
        isClone: v.kind === 'clone',
        owner: v.owner,
        sourceVideoId: v.sourceVideoId ?? null,
        createdAt: new Date().toISOString(),
        media: v.media ?? {},
        files: {},
        clips: [],
      };
      this.videos.set(v.videoId, video);
    }
    video.sessionId = v.sessionId;
    if (!video.sessions.includes(v.sessionId)) video.sessions.push(v.sessionId);
    this.sessions.set(v.sessionId, v.videoId);
    return view(video);
  }

  video(videoId: string): LibraryVideo | undefined {
    const v = this.videos.get(videoId);
    return v && view(v);
  }

  videoOfSession(sessionId: string): LibraryVideo | undefined {
    const id = this.sessions.get(sessionId);
    return id === undefined ? undefined : this.video(id);
  }

  /** A clone: a new video holding the same files as its source (files are immutable once stored). */
  clone(sourceVideoId: string, v: Omit<NewVideo, 'kind' | 'sourceVideoId'>): LibraryVideo {
    const source = this.mustGet(sourceVideoId);
    this.openSession({ ...v, kind: 'clone', sourceVideoId, media: v.media ?? source.media });
    this.mustGet(v.videoId).files = { ...source.files };
    return this.video(v.videoId)!;
  }

  storeFile(videoId: string, kind: FileKind, file: StoredFile): void {
    this.mustGet(videoId).files[kind] = file;
  }

  /** A clip upload: a new video of its own, listed on the video it was cut from. */
  addClip(parentVideoId: string, v: { videoId: string; sessionId: string; title: string; owner: string; file: StoredFile }): LibraryVideo {
    const parent = this.mustGet(parentVideoId);
    this.openSession({ videoId: v.videoId, sessionId: v.sessionId, title: v.title, kind: 'clip', owner: v.owner, sourceVideoId: parentVideoId });
    // the clip's own session entry must not steal the parent's session
    this.sessions.set(v.sessionId, parentVideoId);
    this.storeFile(v.videoId, 'video', v.file);
    parent.clips.push({ videoId: v.videoId, title: v.title });
    return this.video(v.videoId)!;
  }

  /** Where a stored file's bytes are (for serving it back). */
  filePath(videoId: string, kind: FileKind): string | undefined {
    return this.videos.get(videoId)?.files[kind]?.path;
  }

  list(): LibraryVideo[] {
    return [...this.videos.values()].map(view);
  }

  clear(): void {
    this.videos.clear();
    this.sessions.clear();
  }

  private mustGet(videoId: string): StoredVideo {
    const v = this.videos.get(videoId);
    if (!v) throw new Error(`no video ${videoId} in the sandbox library`);
    return v;
  }
}

/** A copy without file paths (what the JSON API shows). */
function view(v: StoredVideo): LibraryVideo {
  const files: LibraryVideo['files'] = {};
  for (const k of FILE_KINDS) {
    const f = v.files[k];
    if (f) files[k] = { uploadId: f.uploadId, bytes: f.bytes, sha256: f.sha256, contentType: f.contentType, uploadedAt: f.uploadedAt };
  }
  return { ...v, sessions: [...v.sessions], media: { ...v.media }, files, clips: v.clips.map((c) => ({ ...c })) };
}

const FILE_LABELS: Record<FileKind, string> = { video: 'Main video', vtt: 'Subtitles', wordByword: 'Word-by-word transcript' };
const KIND_LABELS: Record<VideoKind, string> = { original: 'Original', clone: 'Clone', clip: 'Clip' };

/** The library as a page a person (or an end-to-end test) can read. */
export function renderLibraryHtml(videos: LibraryVideo[]): string {
  const byId = new Map(videos.map((v) => [v.videoId, v]));
  const fileRow = (label: string, f: LibraryFile | undefined, href: string | null): string =>
    f
      ? `<tr data-kind="${escapeHtml(label)}"><td>${escapeHtml(label)}</td><td class="bytes">${f.bytes} bytes</td><td class="sha256" title="${f.sha256}">sha256 ${f.sha256.slice(0, 12)}</td><td>${escapeHtml(f.uploadedAt)}</td><td>${href ? `<a href="${escapeHtml(href)}">download</a>` : ''}</td></tr>`
      : '';
  const section = (v: LibraryVideo): string => {
    const label = (k: FileKind): string => (v.kind === 'clip' && k === 'video' ? `Clip: ${v.title}` : FILE_LABELS[k]);
    const rows = FILE_KINDS.map((k) => fileRow(label(k), v.files[k], `/library/files/${encodeURIComponent(v.videoId)}/${k}`));
    for (const c of v.clips) {
      const clip = byId.get(c.videoId);
      rows.push(fileRow(`Clip: ${c.title}`, clip?.files.video, `/library/files/${encodeURIComponent(c.videoId)}/video`));
    }
    const body = rows.filter(Boolean).join('\n');
    const source = v.sourceVideoId ? ` · from <code>${escapeHtml(v.sourceVideoId)}</code>` : '';
    return `<section class="video" data-video-id="${escapeHtml(v.videoId)}" data-kind="${v.kind}">
<h2>${escapeHtml(v.title)} <small>(${KIND_LABELS[v.kind]})</small></h2>
<p>video <code>${escapeHtml(v.videoId)}</code> · session <code>${escapeHtml(v.sessionId)}</code> · owner ${escapeHtml(v.owner)}${source}</p>
${body ? `<table>\n${body}\n</table>` : '<p>No uploads yet.</p>'}
</section>`;
  };
  const list = videos.length ? videos.map(section).join('\n') : '<p>The library is empty: open a video with <a href="/">a demo link</a>.</p>';
  return `<!doctype html><html><head><meta charset="utf-8"><title>Provider sandbox library</title>
<style>body{font-family:sans-serif;margin:2rem}table{border-collapse:collapse}td{padding:.2rem .8rem;border-bottom:1px solid #ddd}small{color:#666}</style>
</head><body><h1>Library</h1>
${list}
</body></html>`;
}
