import type { VideoStore } from '../videos/video-store';
import type { OperatorAccess } from './operator-access';
import type { OperatorFigures } from './operator-figures';
import type { OperatorVideos } from './operator-videos';
import type { VideoDeletion } from './video-deletion';

export const OPERATOR_SERVICE = Symbol('OPERATOR_SERVICE');

/** What the operator routes use: sign-in, the video list, deletions, figures, error log and failed webhooks. */
export class OperatorService {
  constructor(
    readonly access: OperatorAccess,
    readonly videos: OperatorVideos,
    readonly deletion: VideoDeletion,
    private readonly library: VideoStore,
    /** the session cookie is Secure (off only on a local stack over plain http) */
    readonly cookieSecure: boolean,
    readonly figures: OperatorFigures,
  ) {}

  async ownsVideo(videoId: string, userId: string): Promise<boolean> {
    return (await this.library.getOwned(videoId, userId)) !== null;
  }
}
