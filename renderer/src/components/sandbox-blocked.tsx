// A confined server failed on a path the sandbox keeps from it: say which path, and offer the two
// ways out, as VS Code's sandbox dialog does: "Grant this folder…" (or "Allow writing…" for a folder
// shared read-only) and "Run without sandbox" (behind the same confirmation as the switch). The
// path comes from the server's own output, so the grant is confirmed in a dialog that says so and
// starts on read-only (grant-suggestion-dialog.tsx); running without the sandbox is never first.
import { useState } from 'react';
import type { GrantMode, ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { useGrantFolder } from '../use-grant-folder.js';
import { useRoots } from '../use-host-state.js';
import { GrantSuggestionDialog } from './grant-suggestion-dialog.js';
import { InlineError } from './inline-error.js';
import { SandboxOffDialog } from './sandbox-off-dialog.js';

export function SandboxBlocked({ server }: { server: ServerView }) {
  const { t } = useI18n();
  const roots = useRoots();
  const grant = useGrantFolder();
  const reconnect = useCommand('servers.reconnect');
  const [confirmingOff, setConfirmingOff] = useState(false);
  const [confirmingGrant, setConfirmingGrant] = useState(false);
  const blocked = server.status.confinement?.blocked;
  if (!blocked || !server.sandbox) return null;
  const lead =
    blocked.kind === 'read-only-grant'
      ? t('blocked.readOnly', { path: blocked.path })
      : blocked.kind === 'sandbox-setup'
        ? t('blocked.setup', { path: blocked.path })
        : t('blocked.outside', { path: blocked.path });
  const saidAbove = server.status.failure?.stderr?.some((line) => line.includes(blocked.line)) === true;
  // Already granted as asked (the state is newer than the failure): only the other way out is left.
  const folderRoot = roots.find((root) => root.path === blocked.folder || root.canonicalPath === blocked.folder);
  const alreadyGranted = folderRoot !== undefined && server.grantedRootIds.includes(folderRoot.id) && (blocked.kind !== 'read-only-grant' || !server.readOnlyRootIds.includes(folderRoot.id));
  // A server waiting for its next retry is restarted by the grant itself (the roots-change policy's
  // 'retry'). One that failed for good (no retry due) is not: granting is the fix the person chose,
  // so it is started again here.
  const grantAndRetry = async (mode: GrantMode) => {
    const granted = await grant.run(server.id, blocked.folder, mode);
    if (!granted.ok) return;
    setConfirmingGrant(false);
    if (server.status.state !== 'connected' && server.status.nextRetryAt === undefined) await reconnect.run({ serverId: server.id });
  };
  return (
    <div className="callout callout--warning sandbox-blocked" role="status" data-testid="sandbox-blocked">
      <p className="sandbox-blocked__lead">
        <strong>{t('blocked.title')}</strong> {lead}
      </p>
      {/* The failure above quotes the server's last lines: the blocked one is not said twice (#30 item 5). */}
      {!saidAbove && <pre className="failure__stderr">{blocked.line}</pre>}
      <p className="sandbox-blocked__actions">
        {!alreadyGranted && blocked.kind !== 'sandbox-setup' && (
          <button
            type="button"
            className="button button--compact button--primary"
            disabled={grant.pending !== undefined || reconnect.pending}
            onClick={() => setConfirmingGrant(true)}
          >
            {blocked.kind === 'read-only-grant' ? t('blocked.allowWriting', { folder: blocked.folder }) : t('blocked.grant', { folder: blocked.folder })}
          </button>
        )}
        <button type="button" className="button button--compact button--danger-ghost" onClick={() => setConfirmingOff(true)}>
          {t('blocked.runWithout')}
        </button>
      </p>
      <InlineError error={grant.error} onDismiss={grant.clearError} />
      <InlineError error={reconnect.error} onDismiss={reconnect.clearError} />
      <SandboxOffDialog server={server} open={confirmingOff} onClose={() => setConfirmingOff(false)} />
      {confirmingGrant && (
        <GrantSuggestionDialog
          open
          serverName={server.name}
          blocked={blocked}
          pending={grant.pending !== undefined || reconnect.pending}
          error={grant.error}
          onGrant={(mode) => void grantAndRetry(mode)}
          onCancel={() => setConfirmingGrant(false)}
        />
      )}
    </div>
  );
}
