/**
 * @wordcut/publishing: the pure rules of publishing to the provider (and the export quota),
 * shared by the browser and the services: export quota, exportable items and the dialog's
 * buttons, the export request and its idempotency key, progress texts, retry and backoff timing,
 * and every message.
 * No React, DOM, Node APIs or IO; imports only @wordcut/contracts.
 */
export * from './messages';
export * from './quota';
export * from './items';
export * from './request';
export * from './idempotency';
export * from './progress';
export * from './retry';
export * from './tracked-exports';
