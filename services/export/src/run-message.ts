import { ExportSubjects } from '@wordcut/contracts';
import { z } from 'zod';

/** Payload of `export.run.<jobId>`: the job to run (everything else is in Postgres). */
export const exportRunMessageSchema = z.object({ jobId: z.string() });
export type ExportRunMessage = z.infer<typeof exportRunMessageSchema>;

export const runSubject = (jobId: string): string => `${ExportSubjects.run}.${jobId}`;
