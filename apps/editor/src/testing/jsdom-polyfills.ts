/**
 * Node globals that jsdom does not provide but react-router needs. Import this first in a
 * jsdom spec that renders routes. (Test-only; excluded from the app's tsconfig and bundle.)
 */
import { TextDecoder, TextEncoder } from 'node:util';

Object.assign(globalThis, { TextDecoder, TextEncoder });
