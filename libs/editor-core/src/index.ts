/**
 * @wordcut/editor-core: the transcript editor's pure logic, shared by the browser editor and the
 * services. Selection, undo history (with compact persistence), save deltas, search and replace,
 * mute-similar, pending cuts and mutes, keep-selection checks, job exclusion and formats; preview
 * modes, reorder mode, clips, the active-jobs list and timeline geometry.
 * No React, DOM, Node APIs or IO.
 */
export * from './selection';
export * from './history';
export * from './deltas';
export * from './search';
export * from './similar';
export * from './pending';
export * from './keep';
export * from './jobs';
export * from './fillers';
export * from './preview';
export * from './reorder';
export * from './clips';
export * from './active-jobs';
export * from './timeline';
