import type { Metrics } from '@wordcut/contracts';
import { formatMemory, formatUptime } from '../format';
import { Field, FigureSection } from './parts';

/** Runtime version, platform, memory used / total, uptime in whole minutes. */
export function SystemInfo({ system }: { system: Metrics['system'] }) {
  return (
    <FigureSection title="System Information" testId="section-system">
      <dl className="wc-an-dl">
        <Field label="Runtime version">{system.nodeVersion}</Field>
        <Field label="Platform">{system.platform}</Field>
        <Field label="Memory" testId="system-memory">
          {formatMemory(system.memory)}
        </Field>
        <Field label="Uptime" testId="system-uptime">
          {formatUptime(system.uptime)}
        </Field>
      </dl>
    </FigureSection>
  );
}
