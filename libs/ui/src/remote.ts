import type { ComponentType } from 'react';

/**
 * The typed contract between the shell and its federated remotes. Every remote exposes
 * exactly one entry, `./Module`, whose default export is a component taking these props.
 * Routing, the query client, tooltips and toasts come from the shell through the shared
 * singletons (react-router-dom, @tanstack/react-query, @wordcut/ui).
 */
export interface RemoteProps {
  /** The path the shell mounted the remote at, e.g. '/' or '/analytics'. */
  basePath: string;
}

export type RemoteModule = { default: ComponentType<RemoteProps> };

/** The names of the remotes the shell knows; keys of `/remotes.json`. */
export const REMOTE_NAMES = ['editor', 'keyclips', 'publish', 'analytics'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** The one exposed entry of every remote. */
export const REMOTE_EXPOSE = './Module';

/** Module Federation container name of a remote (a global name, hence the prefix). */
export function containerName(name: RemoteName): string {
  return `wordcut_${name}`;
}

/** Human label of a remote, for loading and fallback texts. */
export const REMOTE_LABELS: Record<RemoteName, string> = {
  editor: 'Editor',
  keyclips: 'KeyClips',
  publish: 'Publishing',
  analytics: 'Analytics',
};
