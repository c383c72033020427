import { createContext, useContext, useMemo } from 'react';
import { quotaState } from '@wordcut/editor-core';
import { useSession } from '@wordcut/ui';

/**
 * The plan's monthly export quota as the editor sees it (plan.quotas.exportsPerMonth and
 * usage.exportsThisMonth). The page that knows the session's plan provides it;
 * without a provider there is no known limit and exporting is allowed (the server still decides:
 * a 429 quota_exceeded answer is handled where clips are created).
 */
export interface ExportQuota {
  exportsPerMonth: number | null | undefined;
  exportsThisMonth: number;
}

export const ExportQuotaContext = createContext<ExportQuota | null>(null);

/** 'ok' | 'near' | 'exceeded' for the provided quota ('near' from 80 % of the monthly exports). */
export function useExportQuotaState(): 'ok' | 'near' | 'exceeded' {
  const quota = useContext(ExportQuotaContext);
  return quota ? quotaState(quota.exportsPerMonth, quota.exportsThisMonth) : 'ok';
}

/**
 * The quota of the provider session (the page's shared session store: the token's plan and usage
 * snapshot, or the server's count after a refresh), for ExportQuotaContext; null without a plan
 * (no known limit). Stable while the two numbers stay the same, so consumers do not re-render on
 * every token refresh.
 */
export function useSessionExportQuota(): ExportQuota | null {
  const { plan, usage } = useSession();
  const hasPlan = plan !== null;
  const exportsPerMonth = plan?.quotas.exportsPerMonth;
  const exportsThisMonth = usage?.exportsThisMonth ?? 0;
  return useMemo(() => (hasPlan ? { exportsPerMonth, exportsThisMonth } : null), [hasPlan, exportsPerMonth, exportsThisMonth]);
}
