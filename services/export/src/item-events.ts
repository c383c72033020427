import { ExportSubjects, type ExportItemUploadedEvent } from '@wordcut/contracts';
import type { Messaging } from '@wordcut/messaging';
import type { Logger } from '@wordcut/platform';
import type { ExportItemRow } from './export-item-store';
import type { FailedJob } from './export-store';

/**
 * Tells the gateway an item's upload result on `export.events.item` (it sets the video's or clip's
 * upload status). The msgId `<job>:<type>:<item>:<status>` lets JetStream drop a repeat.
 */
export async function announceItem(
  bus: Messaging,
  videoId: string,
  item: Pick<ExportItemRow, 'jobId' | 'type' | 'itemId'>,
  status: ExportItemUploadedEvent['status'],
  providerVideoId: string | null,
): Promise<void> {
  const event: ExportItemUploadedEvent = {
    exportJobId: item.jobId,
    videoId,
    type: item.type,
    clipId: item.type === 'clip' ? item.itemId : null,
    status,
    providerVideoId,
  };
  await bus.publish(ExportSubjects.itemUploaded, event, { msgId: `${item.jobId}:${item.type}:${item.itemId}:${status}` });
}

/**
 * The items a failed job never uploaded are announced failed, so the gateway stops showing them
 * as uploading. The job is already failed: an announcement that cannot be published is logged.
 */
export async function announceUnreached(bus: Messaging, logger: Logger, failed: FailedJob): Promise<void> {
  for (const item of failed.unreached) {
    await announceItem(bus, failed.job.videoId, item, 'failed', null).catch((err: unknown) =>
      logger.warn({ err, jobId: failed.job.id, item: item.type, itemId: item.itemId }, 'could not announce an item of a failed export'),
    );
  }
}
