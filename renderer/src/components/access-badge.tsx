// A root's reachability as a badge (word + shape + color, never color alone) and its reason.
import type { AccessState, RootAccess } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import { useLive } from '../use-live.js';
import { accessReasonText } from './access-reason.js';

export type Tone = 'success' | 'warning' | 'danger' | 'neutral' | 'info';

export const accessTone: Record<AccessState, Tone> = {
  checking: 'neutral',
  ok: 'success',
  missing: 'warning',
  'not-directory': 'warning',
  'target-changed': 'warning',
  'permission-denied': 'danger',
  error: 'danger',
};

export const accessLabelKey: Record<AccessState, MessageKey> = {
  checking: 'access.checking',
  ok: 'access.ok',
  missing: 'access.missing',
  'not-directory': 'access.notDirectory',
  'target-changed': 'access.targetChanged',
  'permission-denied': 'access.permissionDenied',
  error: 'access.error',
};

export function Badge({ tone, children, title }: { tone: Tone; children: string; title?: string | undefined }) {
  return (
    <span className={`badge badge--${tone}`} title={title}>
      <span className="badge__dot" aria-hidden="true" />
      {children}
    </span>
  );
}

export function AccessBadge({ access }: { access: RootAccess }) {
  const { t } = useI18n();
  if (!useLive()) return <UnknownBadge />;
  return (
    <Badge tone={accessTone[access.state]} title={accessReasonText(t, access)}>
      {t(accessLabelKey[access.state])}
    </Badge>
  );
}

/** Shown in place of a live badge while the host cannot be reached: the last word may be stale. */
export function UnknownBadge() {
  const { t } = useI18n();
  return (
    <Badge tone="neutral" title={t('status.unknownTitle')}>
      {t('status.unknown')}
    </Badge>
  );
}
