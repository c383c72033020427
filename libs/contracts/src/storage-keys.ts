/**
 * The bucket layout (docs/ARCHITECTURE.md "Storage layout"). Keys never derive from a client's
 * file name: every part is a generated id.
 */
export const StorageKeys = {
  /** the original media, untouched for the life of the video */
  originalVideo: (videoId: string, objectId: string) => `videos/${videoId}/original/${objectId}.mp4`,
  /** the MP4 master of an original in another container (MKV, WebM): what renders, the player and publishing read */
  masterVideo: (videoId: string, jobId: string) => `videos/${videoId}/original/${jobId}.master.mp4`,
  /** the caption file the video came with */
  originalVtt: (videoId: string, objectId: string) => `videos/${videoId}/original/${objectId}.vtt`,
  /** the provider's word-by-word JSON the video came with */
  originalWordByWord: (videoId: string, objectId: string) => `videos/${videoId}/original/${objectId}.words.json`,
  /** where each frame of a variable-frame-rate original starts (encodeFrameGrid), for cutting on its frames */
  frameGrid: (videoId: string) => `videos/${videoId}/original/frames.grid`,
  /** a browser-playable copy of media the browser cannot play as is (HEVC, no faststart, ...) */
  proxy: (videoId: string, objectId: string) => `videos/${videoId}/proxy/${objectId}.mp4`,
  /** a caption file brought later ('Replace transcript'), kept as it came */
  replacementCaptions: (videoId: string, objectId: string) => `videos/${videoId}/captions/${objectId}.txt`,
  /** the words a transcription service heard in a video that came without captions (word JSON) */
  transcribedWords: (videoId: string, jobId: string) => `videos/${videoId}/captions/${jobId}.transcribed.json`,
  /** an ingest transcript a replacement took the place of, kept beside it */
  replacedTranscript: (videoId: string, jobId: string, at: string) => `videos/${videoId}/ingest/${jobId}/replaced-${at}.json`,
  /** the transcript an ingest built, loaded into Postgres by the gateway */
  ingestTranscript: (videoId: string, jobId: string) => `videos/${videoId}/ingest/${jobId}/transcript.json`,
  /** stored peaks of one media version ('original' or a processed file name) */
  waveform: (videoId: string, mediaVersion: string) => `videos/${videoId}/waveform/${encodeURIComponent(mediaVersion)}.peaks`,
  /** the frame-energy series of one media version, made with its peaks (energy-format.ts) */
  energy: (videoId: string, mediaVersion: string) => `videos/${videoId}/waveform/${encodeURIComponent(mediaVersion)}.energy`,
  /** the scene changes of one media version's picture (JSON, sceneChangesSchema), for key moments */
  scenes: (videoId: string, mediaVersion: string) => `videos/${videoId}/waveform/${encodeURIComponent(mediaVersion)}.scenes.json`,
  /** a rendered version of the video (edit list applied to the original), keyed by the job that made it */
  render: (videoId: string, jobId: string) => `videos/${videoId}/renders/${jobId}.mp4`,
  /** captions regenerated after a render (WebVTT and word-by-word JSON) */
  renderVtt: (videoId: string, jobId: string) => `videos/${videoId}/renders/${jobId}.vtt`,
  renderWordByWord: (videoId: string, jobId: string) => `videos/${videoId}/renders/${jobId}.words.json`,
  /** the transcript of one edit version (words, paragraphs, fillers as stored), read back by a restore */
  versionTranscript: (videoId: string, seq: number) => `videos/${videoId}/versions/${seq}.json`,
  /** a clip and its own captions */
  clip: (videoId: string, clipId: string, jobId: string) => `videos/${videoId}/clips/${clipId}/${jobId}.mp4`,
  clipVtt: (videoId: string, clipId: string, jobId: string) => `videos/${videoId}/clips/${clipId}/${jobId}.vtt`,
  /** the captions an export uploads, written from the current transcript when the export runs */
  exportVtt: (videoId: string, exportJobId: string) => `videos/${videoId}/exports/${exportJobId}.vtt`,
  exportWordByWord: (videoId: string, exportJobId: string) => `videos/${videoId}/exports/${exportJobId}.words.json`,
  /** a key-moment job's words and its result (removed once the gateway stored the moments) */
  keyMomentsWords: (videoId: string, jobId: string) => `videos/${videoId}/keymoments/${jobId}.words.json`,
  keyMomentsResult: (videoId: string, jobId: string) => `videos/${videoId}/keymoments/${jobId}.json`,
  /** every object of a video (deleted with it) */
  videoPrefix: (videoId: string) => `videos/${videoId}/`,
} as const;
