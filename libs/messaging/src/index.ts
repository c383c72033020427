export * from './errors';
export * from './messaging';
export * from './operator';
export * from './permissions';
