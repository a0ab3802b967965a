// A restart waiting for running calls: how many, and the most it waits (DRAIN_LIMIT_MS).
import type { DrainView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';

export function DrainNote({ draining }: { draining: DrainView | undefined }) {
  const { t } = useI18n();
  if (!draining) return null;
  return (
    <p className="drain-note" role="status" title={draining.reason}>
      {t('lifecycle.drainNote', { count: draining.calls, seconds: Math.round(draining.limitMs / 1000) })}
    </p>
  );
}
