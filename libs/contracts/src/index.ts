export * from './errors';
export * from './jobs';
export * from './events';
export * from './routes';
export * from './videos';
export * from './provider';
export * from './storage-keys';
export * from './waveform-format';
