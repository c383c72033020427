import type { RemoteProps } from '@wordcut/ui';

/**
 * The publish remote's header actions ('Revert to Original', 'Publish changes'). They only
 * appear for a video linked to a hosted session (seed 000 §1); there is no session yet, so
 * the slot renders nothing visible, only a marker that the remote is loaded.
 */
export default function PublishModule(_props: RemoteProps) {
  return <div className="wc-publish-actions" data-testid="publish-actions" />;
}
