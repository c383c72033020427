/**
 * Injection tokens for collaborators that are interfaces or plain values; stores and services
 * are injected by their class.
 */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const MESSAGING = Symbol('MESSAGING');
export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');
export const LOGGER = Symbol('LOGGER');
