import { createContext, useContext } from 'react';
import { quotaState } from '@wordcut/editor-core';

/**
 * The plan's monthly export quota as the editor sees it (seed 000 §3 "Quota": plan.quotas.
 * exportsPerMonth and usage.exportsThisMonth). The page that knows the session's plan provides it;
 * without a provider there is no known limit and exporting is allowed (the server still decides:
 * a 429 quota_exceeded answer is handled where clips are created).
 */
export interface ExportQuota {
  exportsPerMonth: number | null | undefined;
  exportsThisMonth: number;
}

export const ExportQuotaContext = createContext<ExportQuota | null>(null);

/** 'ok' | 'near' | 'exceeded' for the provided quota (seed 000 §5 "Export quota"). */
export function useExportQuotaState(): 'ok' | 'near' | 'exceeded' {
  const quota = useContext(ExportQuotaContext);
  return quota ? quotaState(quota.exportsPerMonth, quota.exportsThisMonth) : 'ok';
}
