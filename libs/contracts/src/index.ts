export * from './errors';
export * from './jobs';
export * from './events';
export * from './routes';
