export { fileUrl, frameAt, rateValue, rationalRate, timelineFrames, timelinePieces, xmlEscape, type ExportSource, type NamedTimeline, type Rate, type TimelinePiece } from './timeline';
export { EDL_REEL, isDropFrame, timecode, writeEdl } from './edl';
export { fcpTime, gainDb, writeFcpxml } from './fcpxml';
export { writeOtio } from './otio';
export { writeMlt } from './mlt';
export { READER_MAX_EVENTS, READER_MAX_CHARS, ReadError, type ReadEvent, type ReadResult, type ReadTimeline, type ReadTrack, type ReadTrackKind } from './readers/read-timeline';
export { readEdl } from './readers/edl-reader';
export { readFcpxml } from './readers/fcpxml-reader';
export { readOtio } from './readers/otio-reader';
