/** Our MP4 layer: bounded box reading, the one sample model, the movie check, writing. */
export { MP4_LIMITS, Mp4BoundsError, Mp4UnsupportedError, Work, runSliced, runToEnd, type Mp4Limits, type Steps } from './budget';
export { bytesSource, childBoxes, eachChildBox, parseBoxHeader, type BoxHeader, type ByteSource, type ChildBox } from './boxes';
export { checkMovieBoxes, describeIssue, drefIssues, parseMovieTables, readMovie, type MovieCheck, type MovieIssue, type MovieProblem, type ReadMovieOptions } from './movie';
export { openFileSource, readMovieTables, type ClosableSource } from './file-source';
export { parseMovie, type Mp4Track, type MovieTables } from './sample-table';
export { parameterSetsOf, sampleEntryFor } from './parameter-sets';
export { chunksOf, fileTypeBox, mediaDataHeader, movieBox, type OutTrack } from './write';
