export * from './signals';
export * from './sentences';
export * from './audio';
export * from './moments';
export * from './llm';
