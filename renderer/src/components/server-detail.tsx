// One server: its switches and actions (each with its own error beside it), its live facts and
// its activity timeline.
import { useId, useMemo, useState } from 'react';
import type { ProxiedSession, ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { useProxiesByServer, useRootIndex, useRoots } from '../use-host-state.js';
import { useNow } from '../use-now.js';
import { ServerChangesPanel } from './server-changes.js';
import { ActivityTimeline } from './activity-timeline.js';
import { ArgumentFolders } from './argument-folders.js';
import { ConfinementFacts } from './confinement-badge.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { PencilIcon, RefreshIcon, TrashIcon } from './icons.js';
import { InlineError } from './inline-error.js';
import { ProxySessions } from './proxy-sessions.js';
import { SandboxBlocked } from './sandbox-blocked.js';
import { SandboxSwitches } from './sandbox-switches.js';
import { ServerFacts } from './server-facts.js';
import { ServerFailureCallout } from './server-failure-callout.js';
import { ServerLimitsPanel } from './server-limits.js';
import { StatusBadge } from './status-badge.js';
import { DrainNote } from './drain-note.js';
import { PreparingNote } from './preparing-note.js';
import { Switch } from './switch.js';
import { UseWithButton } from './use-with-button.js';
import { offerUndo } from '../undo-offer.js';

const NO_SESSIONS: ProxiedSession[] = [];

export function ServerDetail({ server, onEdit, onRemoved }: { server: ServerView; onEdit(): void; onRemoved(): void }) {
  const { t } = useI18n();
  const roots = useRoots();
  const rootsByUri = useMemo(() => new Map(roots.map((root) => [root.uri, root])), [roots]);
  const rootsById = useRootIndex();
  const proxies = useProxiesByServer().get(server.id) ?? NO_SESSIONS;
  const reconnect = useCommand('servers.reconnect');
  const enable = useCommand('servers.setEnabled');
  const sharing = useCommand('servers.setSharing');
  const remove = useCommand('servers.remove');
  const [confirming, setConfirming] = useState(false);
  const enabledHelp = useId();
  const sharingHelp = useId();

  const confirmRemove = async () => {
    const result = await remove.run({ serverId: server.id });
    if (result.ok) {
      offerUndo(result.value.undoId, t('undo.removedServer', { name: server.name }));
      setConfirming(false);
      onRemoved();
    }
  };

  return (
    <article className="server-detail" aria-labelledby="server-detail-title">
      <header className="server-detail__header">
        <div className="server-detail__heading">
          <h2 id="server-detail-title" className="server-detail__title">
            {server.name}
          </h2>
          <StatusBadge state={server.status.state} lifecycle={server.status.lifecycle} />
          <RetryHint nextRetryAt={server.status.nextRetryAt} />
        </div>
        <DrainNote draining={server.status.draining} />
        <PreparingNote preparing={server.status.preparing} />
        <div className="server-detail__actions">
          <button
            type="button"
            className="button button--compact"
            onClick={() => void reconnect.run({ serverId: server.id })}
            disabled={reconnect.pending || !server.enabled}
          >
            <RefreshIcon /> {t('servers.reconnect')}
          </button>
          <button type="button" className="button button--compact" onClick={onEdit}>
            <PencilIcon /> {t('servers.edit')}
          </button>
          <UseWithButton serverId={server.id} compact />
          <button
            type="button"
            className="button button--compact button--danger-ghost"
            onClick={() => {
              remove.clearError();
              setConfirming(true);
            }}
          >
            <TrashIcon /> {t('servers.remove')}
          </button>
        </div>
      </header>
      <ConfinementFacts server={server} />
      <InlineError error={reconnect.error} onDismiss={reconnect.clearError} />
      <ServerFailureCallout server={server} />
      <SandboxBlocked server={server} />

      <div className="server-detail__switches">
        <div className="switch-row">
          <Switch
            checked={server.enabled}
            label={t('servers.enabled')}
            busy={enable.pending}
            describedBy={enabledHelp}
            onChange={(next) => void enable.run({ serverId: server.id, enabled: next })}
          />
          <p id={enabledHelp} className="field-hint">
            {t('servers.enabledHelp')}
          </p>
          <InlineError error={enable.error} onDismiss={enable.clearError} />
        </div>
        <div className="switch-row">
          <Switch
            checked={server.sharing}
            label={t('servers.sharing')}
            busy={sharing.pending}
            describedBy={sharingHelp}
            onChange={(next) => void sharing.run({ serverId: server.id, sharing: next })}
          />
          <p id={sharingHelp} className="field-hint">
            {t('servers.sharingHelp')}
          </p>
          <InlineError error={sharing.error} onDismiss={sharing.clearError} />
        </div>
        <SandboxSwitches server={server} />
      </div>
      <ArgumentFolders server={server} />

      <ServerFacts server={server} rootsByUri={rootsByUri} rootsById={rootsById} />
      <ServerLimitsPanel server={server} />
      <ProxySessions server={server} sessions={proxies} />
      {server.sandbox && <ServerChangesPanel server={server} />}
      <ActivityTimeline serverId={server.id} />

      <ConfirmDialog
        open={confirming}
        title={t('servers.removeTitle', { name: server.name })}
        confirmLabel={t('servers.removeConfirm')}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setConfirming(false)}
        pending={remove.pending}
        error={remove.error}
      >
        <p>{t('servers.removeBody')}</p>
      </ConfirmDialog>
    </article>
  );
}

function RetryHint({ nextRetryAt }: { nextRetryAt: number | undefined }) {
  const { t } = useI18n();
  const now = useNow();
  if (!nextRetryAt || nextRetryAt <= now) return null;
  return <span className="muted server-detail__retry">{t('servers.retryIn', { seconds: Math.ceil((nextRetryAt - now) / 1000) })}</span>;
}
