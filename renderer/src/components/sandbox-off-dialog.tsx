// The one confirmation before a server runs without the OS sandbox (the detail's switch and the
// "Run without sandbox" offer of a blocked server): it says in words what that gives the server.
import type { ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { ConfirmDialog } from './confirm-dialog.js';

export function SandboxOffDialog({ server, open, onClose }: { server: Pick<ServerView, 'id' | 'name'>; open: boolean; onClose(): void }) {
  const { t } = useI18n();
  const update = useCommand('servers.update');
  const confirm = async () => {
    const result = await update.run({ serverId: server.id, patch: { sandbox: false } });
    if (result.ok) onClose();
  };
  return (
    <ConfirmDialog
      open={open}
      title={t('sandbox.offTitle', { name: server.name })}
      confirmLabel={t('sandbox.offConfirm')}
      onConfirm={() => void confirm()}
      onCancel={() => {
        update.clearError();
        onClose();
      }}
      pending={update.pending}
      error={update.error}
    >
      <div className="sandbox-off-words">
        <p>
          <strong>{t('sandbox.offBody1', { name: server.name })}</strong>
        </p>
        <p>{t('sandbox.offBody2')}</p>
      </div>
    </ConfirmDialog>
  );
}
