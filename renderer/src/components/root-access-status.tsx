// A folder's reachability, and for an unreachable one what is wrong and what the person can do:
// "Check again" re-probes it now (after plugging a drive back in, fixing permissions…) instead of
// waiting for the next sweep; "Use new location" accepts a folder that was swapped for a symlink,
// which stays hidden from every server until someone confirms where it leads now.
// Rows are one fixed height (the table is virtualized), so a failed action replaces the reason line.
import type { RootView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { AccessBadge } from './access-badge.js';
import { accessReasonText } from './access-reason.js';
import { RefreshIcon } from './icons.js';
import { InlineError } from './inline-error.js';

export function RootAccessStatus({ root, problem }: { root: RootView; problem: boolean }) {
  const { t } = useI18n();
  const recheck = useCommand('roots.recheck');
  const accept = useCommand('roots.acceptTarget');
  const reason = problem ? accessReasonText(t, root.access) : undefined;
  const error = accept.error ?? recheck.error;
  return (
    <>
      <span className="roots-table__statusline">
        <AccessBadge access={root.access} />
        {problem && root.access.state === 'target-changed' && (
          <button
            type="button"
            className="button button--ghost button--mini"
            aria-label={t('roots.acceptTargetLabel', { name: root.name })}
            disabled={accept.pending}
            onClick={() => void accept.run({ rootId: root.id })}
          >
            {t('roots.acceptTarget')}
          </button>
        )}
        {problem && (
          <button
            type="button"
            className="button button--ghost button--mini"
            aria-label={t('roots.recheckLabel', { name: root.name })}
            disabled={recheck.pending}
            onClick={() => void recheck.run({ rootIds: [root.id] })}
          >
            <RefreshIcon size={13} /> {t('roots.recheck')}
          </button>
        )}
      </span>
      {error ? (
        <InlineError
          error={error}
          onDismiss={() => {
            accept.clearError();
            recheck.clearError();
          }}
        />
      ) : (
        reason && (
          <span className="roots-table__reason" title={reason}>
            {reason}
          </span>
        )
      )}
    </>
  );
}
