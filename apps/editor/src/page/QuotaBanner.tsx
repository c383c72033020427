import { useEffect, useState } from 'react';
import { monthlyQuotaBanner, quotaModalFacts } from '@wordcut/publishing';
import { useSession } from '@wordcut/ui';
import { InfoDialog } from '../shared/dialogs';

/**
 * The quota banner area of the editor page: from the session's plan and usage, nothing below 80 %
 * of the monthly exports (or without a monthly limit), a warning from 80 %, a red alert from
 * 100 %. At 100 % a modal with the current usage, the plan and the reset date also opens, once per
 * video in this browser session, and tells the user that upgrades go through their account
 * administrator.
 */

export const QUOTA_MODAL_SHOWN_KEY = 'wordcut_quota_modal_shown';
export const QUOTA_MODAL_TITLE = 'Export limit reached';

/** Where sessionStorage is blocked, "already shown" is remembered for the page's life. */
const shownInMemory = new Set<string>();

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function shownKeys(): string[] {
  try {
    const raw = storage()?.getItem(QUOTA_MODAL_SHOWN_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/** Whether the modal was already shown for this video in this browser session. */
export function quotaModalShown(key: string): boolean {
  return shownInMemory.has(key) || shownKeys().includes(key);
}

/** Remembers that the modal was shown for this video (sessionStorage, else memory). */
export function markQuotaModalShown(key: string): void {
  const session = storage();
  try {
    if (!session) throw new Error('no sessionStorage');
    const keys = shownKeys();
    if (!keys.includes(key)) session.setItem(QUOTA_MODAL_SHOWN_KEY, JSON.stringify([...keys, key]));
  } catch {
    // blocked storage: remembered for this page's life instead
    shownInMemory.add(key);
  }
}

export function QuotaBanner({ videoId }: { videoId: string }) {
  const { plan, usage } = useSession();
  const monthly = usage ? { exportsThisMonth: usage.exportsThisMonth, nextResetTime: usage.nextMonthlyReset } : null;
  const banner = monthly ? monthlyQuotaBanner(plan, monthly) : null;
  const exceeded = banner?.level === 'exceeded';
  const [modalOpen, setModalOpen] = useState(false);
  // the modal opens by itself: on close focus goes back to where the user was (InfoDialog)

  useEffect(() => {
    if (!exceeded || quotaModalShown(videoId)) return;
    markQuotaModalShown(videoId);
    setModalOpen(true);
  }, [exceeded, videoId]);

  if (!banner || !monthly) return null;
  const facts = quotaModalFacts(plan, monthly, new Date());
  return (
    <>
      <div
        className={`wc-quota-banner wc-quota-banner--${banner.level}`}
        role={exceeded ? 'alert' : 'status'}
        data-testid="quota-banner"
        data-level={banner.level}
      >
        <strong className="wc-quota-banner__text">{banner.text}</strong>
        <span className="wc-quota-banner__detail">{banner.detail}</span>
      </div>
      <InfoDialog
        open={modalOpen}
        onOpenChange={setModalOpen}
        title={QUOTA_MODAL_TITLE}
        description="You have used all the exports your plan allows this month."
        className="wc-quota-modal"
        testId="quota-modal"
      >
        <dl className="wc-dl wc-quota-modal__facts">
          <div className="wc-dl__row">
            <dt>Usage</dt>
            <dd data-testid="quota-modal-usage">{facts.usageText}</dd>
          </div>
          <div className="wc-dl__row">
            <dt>Plan</dt>
            <dd data-testid="quota-modal-plan">{facts.planTier}</dd>
          </div>
          <div className="wc-dl__row">
            <dt>Reset</dt>
            <dd data-testid="quota-modal-reset">{facts.resetText}</dd>
          </div>
        </dl>
        <p className="wc-quota-modal__guidance">{facts.upgradeText}</p>
      </InfoDialog>
    </>
  );
}
