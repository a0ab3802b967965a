// The hosts a network-on server may reach (registry `allowHosts`), in its detail beside the ports
// of this computer: any host (as before), or only the hosts listed. A change of the list reaches
// the running server live; between "any host" and a list it restarts. Entries are checked by the
// one parser the CLI and the registry use (shared/host-patterns.ts); a known server's hosts are
// offered, never added by themselves.
import { useId, useState, type FormEvent } from 'react';
import type { ServerView } from '../../../shared/domain.js';
import { parseHostPattern } from '../../../shared/host-patterns.js';
import { suggestedHosts } from '../../../shared/known-server-hosts.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { InlineError } from './inline-error.js';
import { NetworkRecordList } from './network-record-list.js';

export function AllowedHostsField({ server }: { server: ServerView }) {
  const { t } = useI18n();
  const update = useCommand('servers.update');
  const [typed, setTyped] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>(undefined);
  const id = useId();
  const hosts = server.allowHosts;
  const limited = hosts !== undefined;
  const commandLine = server.transport.type === 'stdio' ? [server.transport.command, ...server.transport.args] : [];
  const suggestions = suggestedHosts(commandLine).filter((host) => !hosts?.includes(host));

  const save = (next: string[] | null) => void update.run({ serverId: server.id, patch: { allowHosts: next } });
  const add = (text: string) => {
    const parsed = parseHostPattern(text);
    if (!parsed.ok) return setInvalid(parsed.error);
    setInvalid(undefined);
    setTyped('');
    if (!hosts?.includes(parsed.pattern.text)) save([...(hosts ?? []), parsed.pattern.text]);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add(typed);
  };

  return (
    <div className="local-ports allowed-hosts">
      <span className="local-ports__label" id={`${id}-label`}>
        {t('sandbox.allowedHosts')}
      </span>
      <div className="allowed-hosts__mode" role="radiogroup" aria-labelledby={`${id}-label`}>
        <label className="allowed-hosts__choice">
          <input type="radio" name={`${id}-mode`} checked={!limited} disabled={update.pending} onChange={() => save(null)} />
          {t('sandbox.allowedHostsAny')}
        </label>
        <label className="allowed-hosts__choice">
          <input type="radio" name={`${id}-mode`} checked={limited} disabled={update.pending} onChange={() => save(suggestions.length ? suggestions : [])} />
          {t('sandbox.allowedHostsOnly')}
        </label>
      </div>
      {limited && (
        <>
          <ul className="local-ports__list" aria-label={t('sandbox.allowedHostsList')}>
            {hosts.length === 0 && <li className="local-ports__none">{t('sandbox.allowedHostsNone')}</li>}
            {hosts.map((host) => (
              <li key={host} className="local-ports__port">
                <span className="local-ports__number">{host}</span>
                <button type="button" className="button button--compact button--ghost" aria-label={t('sandbox.allowedHostsRemove', { host })} disabled={update.pending} onClick={() => save(hosts.filter((each) => each !== host))}>
                  ×
                </button>
              </li>
            ))}
          </ul>
          <form className="local-ports__form" onSubmit={submit}>
            <input
              className="input input--compact input--mono local-ports__input allowed-hosts__input"
              aria-label={t('sandbox.allowedHostsInput')}
              aria-invalid={invalid !== undefined || undefined}
              aria-describedby={`${id}-help`}
              placeholder={t('sandbox.allowedHostsPlaceholder')}
              value={typed}
              onChange={(event) => {
                setTyped(event.target.value);
                setInvalid(undefined);
              }}
            />
            <button type="submit" className="button button--compact" disabled={update.pending || typed.trim() === ''}>
              {t('sandbox.allowedHostsAdd')}
            </button>
          </form>
        </>
      )}
      {suggestions.length > 0 && (
        <p className="field-hint allowed-hosts__suggestions">
          {t('sandbox.allowedHostsSuggested')}{' '}
          {suggestions.map((host) => (
            <button key={host} type="button" className="button button--compact button--ghost" disabled={update.pending} onClick={() => add(host)}>
              + {host}
            </button>
          ))}
        </p>
      )}
      {invalid && <p className="field-hint field-hint--warning">{invalid}</p>}
      <p id={`${id}-help`} className="field-hint">
        {limited ? t('sandbox.allowedHostsHelpOnly') : t('sandbox.allowedHostsHelpAny')}
      </p>
      <InlineError error={update.error} onDismiss={update.clearError} />
      {limited && <NetworkRecordList serverId={server.id} />}
    </div>
  );
}
