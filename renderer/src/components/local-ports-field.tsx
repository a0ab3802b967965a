// The ports of this computer a network-on server may reach (registry `allowLocal`), in its detail
// beside the Network switch. Closed by default; each port opened or closed here restarts the server
// (pasta forwards the ports it is given at the start). Where the server shares this computer's
// network (no pasta), nothing is closed, and the help says so rather than show a list that binds nothing.
import { useId, useState, type FormEvent } from 'react';
import type { ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { InlineError } from './inline-error.js';

/** A port as typed: digits only, 1 to 65535; undefined otherwise. */
export function parsePort(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,5}$/.test(trimmed)) return undefined;
  const port = Number(trimmed);
  return port >= 1 && port <= 65535 ? port : undefined;
}

export function LocalPortsField({ server }: { server: ServerView }) {
  const { t } = useI18n();
  const update = useCommand('servers.update');
  const [typed, setTyped] = useState('');
  const [invalid, setInvalid] = useState(false);
  const id = useId();
  const ports = server.allowLocal ?? [];
  const open = server.status.confinement?.loopback === 'open';

  const save = (next: number[]) => void update.run({ serverId: server.id, patch: { allowLocal: [...new Set(next)].sort((a, b) => a - b) } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const port = parsePort(typed);
    setInvalid(port === undefined);
    if (port === undefined) return;
    setTyped('');
    if (!ports.includes(port)) save([...ports, port]);
  };

  return (
    <div className="local-ports">
      <span className="local-ports__label" id={`${id}-label`}>
        {t('sandbox.localPorts')}
      </span>
      <ul className="local-ports__list" aria-labelledby={`${id}-label`}>
        {ports.length === 0 && <li className="local-ports__none">{t('sandbox.localPortsNone')}</li>}
        {ports.map((port) => (
          <li key={port} className="local-ports__port">
            <span className="local-ports__number">{port}</span>
            <button type="button" className="button button--compact button--ghost" aria-label={t('sandbox.localPortsClose', { port: String(port) })} disabled={update.pending} onClick={() => save(ports.filter((each) => each !== port))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <form className="local-ports__form" onSubmit={submit}>
        <input
          id={`${id}-input`}
          className="input input--compact input--mono local-ports__input"
          inputMode="numeric"
          aria-label={t('sandbox.localPortsInput')}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-help`}
          placeholder={t('sandbox.localPortsPlaceholder')}
          value={typed}
          onChange={(event) => {
            setTyped(event.target.value);
            setInvalid(false);
          }}
        />
        <button type="submit" className="button button--compact" disabled={update.pending || typed.trim() === ''}>
          {t('sandbox.localPortsOpen')}
        </button>
      </form>
      {invalid && <p className="field-hint field-hint--warning">{t('sandbox.localPortsInvalid')}</p>}
      <p id={`${id}-help`} className="field-hint">
        {open ? t('sandbox.localPortsHelpOpen') : t('sandbox.localPortsHelpClosed')}
      </p>
      <InlineError error={update.error} onDismiss={update.clearError} />
    </div>
  );
}
