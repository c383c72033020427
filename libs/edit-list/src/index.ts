/**
 * @wordcut/edit-list: the edit-list domain, pure and browser-safe (no Node APIs), shared by the
 * editor and the services. The original media is never changed; an edit list says which source
 * ranges play in which order, what is muted and whether captions are burned in. Every edit takes
 * ranges in output time (what the user sees now) and composes onto the list.
 */
export { EditListError, type EditListErrorCode } from './errors';
export { MUTE_LEVELS, MUTE_VOLUME, type EditList, type MuteLevel, type OutputMute, type SourceMute, type SourceSegment, type TimeRange } from './types';
export { editListSchema, parseEditList } from './schema';
export { describeEditList, identityEditList, isIdentity, outputDuration, withCaptions } from './basics';
export { mapRangeToSource, mapSourceRangeToOutput, mapTimeThrough, toOutput, toSource } from './mapping';
export { applyCuts, applyKeep, applyReorder } from './edits';
export { applyMute, applyMutes, outputMutes, unappliedMutes, type WantedMute } from './mutes';
export { mergeRanges } from './ranges';
export { quantize, snapToFrame } from './quantize';
export { boundaryTime, checkFrameGrid, decodeFrameGrid, encodeFrameGrid, MAX_GRID_FRAMES, nearestBoundary, type FrameGrid } from './frame-grid';
export { retimeWords, type RetimedWord } from './retime';
export {
  ASPECT_RATIOS,
  ASPECT_RATIO_IDS,
  DEFAULT_REFRAME,
  DOWNSCALED_BELOW,
  HEAVY_UPSCALE_AT,
  RATIO_MATCH_TOLERANCE,
  UPSCALED_ABOVE,
  ZOOM_MAX,
  ZOOM_MIN,
  ZOOM_STEP,
  canPan,
  clampReframe,
  clampZoom,
  evenSize,
  exportSize,
  isHeavyUpscale,
  maxOffset,
  panByDrag,
  ratioMatches,
  reframeFromCrop,
  reframeGeometry,
  scaleKind,
  type AspectRatioId,
  type Rect,
  type Reframe,
  type ReframeGeometry,
  type ReframeMode,
} from './reframe';
export {
  CLICK_DRAG_PX,
  INITIAL_FRAMING,
  KEY_PAN_PERCENT,
  canZoomIn,
  canZoomOut,
  chooseRatio,
  fitBox,
  geometryOf,
  isClick,
  panAllowed,
  panBy,
  panByKey,
  previewPictureBox,
  reframeOf,
  resetFraming,
  setZoom,
  zoomIn,
  zoomOut,
  type Framing,
  type SourceSize,
} from './framing';
export * from './export';
export { FOLLOW_DEFAULTS, MAX_PATH_SAMPLES, followFaces, pathAt, pathForClip, simplify, type FaceBox, type FaceSample, type FollowOptions, type PathPoint } from './face-path';
