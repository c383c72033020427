export { fileUrl, frameAt, rateValue, rationalRate, timelineFrames, timelinePieces, xmlEscape, type ExportSource, type Rate, type TimelinePiece } from './timeline';
export { EDL_REEL, isDropFrame, timecode, writeEdl } from './edl';
export { fcpTime, gainDb, writeFcpxml } from './fcpxml';
export { writeOtio } from './otio';
export { writeMlt } from './mlt';
