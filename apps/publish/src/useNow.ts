import { useEffect, useState } from 'react';

/**
 * The current time, re-read every `intervalMs` while `active`: drives countdowns ('Please wait N
 * seconds before retrying.') and the remaining-time estimate without a timer when nothing ticks.
 */
export function useNow(active: boolean, intervalMs = 1000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!active) return undefined;
    setNow(new Date());
    const id = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(id);
  }, [active, intervalMs]);
  return active ? now : new Date();
}
