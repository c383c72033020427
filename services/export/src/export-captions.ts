import { StorageKeys } from '@wordcut/contracts';
import type { Logger } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import type { ExportJobRow } from './export-job-store';

/**
 * Deletes the caption objects the gateway wrote for one export (its VTT and word-by-word JSON,
 * made from the transcript of that moment) once the export is finished: nothing reads them again,
 * and a retry is a new export for which the gateway writes its own. A missing object is fine; a
 * failed delete is logged and never fails the job.
 */
export async function deleteExportCaptions(storage: ObjectStorage, logger: Logger, job: Pick<ExportJobRow, 'id' | 'videoId'>): Promise<void> {
  for (const key of [StorageKeys.exportVtt(job.videoId, job.id), StorageKeys.exportWordByWord(job.videoId, job.id)]) {
    await storage.delete(key).catch((err: unknown) => logger.warn({ err, jobId: job.id, key }, 'could not delete an export caption object'));
  }
}
