// A server's Sandbox, Network and Own sandboxes switches, and the ports of this computer it may reach (server detail). Turning the sandbox off asks first;
// turning it on, and the network either way, take effect at once (the host restarts the server).
// Network off binds only inside the sandbox, so its help says so when the server is not enforced.
import { useId, useState } from 'react';
import type { ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { confinementLook, enforcesModes } from './confinement-view.js';
import { InlineError } from './inline-error.js';
import { LocalPortsField } from './local-ports-field.js';
import { AllowedHostsField } from './allowed-hosts-field.js';
import { SandboxOffDialog } from './sandbox-off-dialog.js';
import { Switch } from './switch.js';

export function SandboxSwitches({ server }: { server: ServerView }) {
  const { t } = useI18n();
  const update = useCommand('servers.update');
  const [confirmingOff, setConfirmingOff] = useState(false);
  const sandboxHelp = useId();
  const networkHelp = useId();
  const ownSandboxesHelp = useId();
  // A remote server runs elsewhere: no sandbox of this computer applies, so there is nothing to switch.
  if (server.transport.type !== 'stdio') return null;
  const enforced = enforcesModes(confinementLook(server));

  return (
    <>
      <div className="switch-row">
        <Switch
          checked={server.sandbox}
          label={t('sandbox.switch')}
          busy={update.pending}
          describedBy={sandboxHelp}
          onChange={(next) => {
            if (next) void update.run({ serverId: server.id, patch: { sandbox: true } });
            else setConfirmingOff(true);
          }}
        />
        <p id={sandboxHelp} className="field-hint">
          {server.sandbox ? t('sandbox.switchHelpOn') : t('sandbox.switchHelpOff')}
        </p>
      </div>
      <div className="switch-row">
        <Switch
          checked={server.network}
          label={t('sandbox.network')}
          busy={update.pending}
          describedBy={networkHelp}
          onChange={(next) => void update.run({ serverId: server.id, patch: { network: next } })}
        />
        <p id={networkHelp} className="field-hint">
          {server.network ? t('sandbox.networkHelpOn') : enforced ? t('sandbox.networkHelpOff') : t('sandbox.networkHelpOffAdvisory')}
        </p>
      </div>
      {server.sandbox && (
        <div className="switch-row">
          <Switch
            checked={server.ownSandboxes === true}
            label={t('sandbox.ownSandboxes')}
            busy={update.pending}
            describedBy={ownSandboxesHelp}
            onChange={(next) => void update.run({ serverId: server.id, patch: { ownSandboxes: next } })}
          />
          <p id={ownSandboxesHelp} className="field-hint">
            {server.ownSandboxes ? t('sandbox.ownSandboxesHelpOn') : t('sandbox.ownSandboxesHelpOff')}
          </p>
        </div>
      )}
      {server.sandbox && server.network && <LocalPortsField server={server} />}
      {server.sandbox && server.network && <AllowedHostsField server={server} />}
      <InlineError error={update.error} onDismiss={update.clearError} />
      <SandboxOffDialog server={server} open={confirmingOff} onClose={() => setConfirmingOff(false)} />
    </>
  );
}
