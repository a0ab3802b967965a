// Why a server could not start, leading with its own words: the exit code and its last stderr
// lines, then a likely fix ("Did you mean npx?" with a button that makes the change). The SDK's
// message is kept behind "Technical detail", never in front.
import type { ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { AlertIcon } from './icons.js';
import { InlineError } from './inline-error.js';
import { failureWords } from '../../../shared/i18n/server-failure-text.js';

export function ServerFailureCallout({ server }: { server: ServerView }) {
  const { t } = useI18n();
  const fix = useCommand('servers.update');
  const failure = server.status.failure;
  if (!failure) {
    // An older host (or a state that is not a failure, such as waiting for a folder) sends only text.
    if (!server.status.error) return null;
    return (
      <div className="callout callout--danger" role="status">
        <strong>{t('servers.lastError')}</strong> <span className="mono">{server.status.error}</span>
      </div>
    );
  }
  const { lead, hint } = failureWords(t, failure);
  const { transport } = server;
  const suggestion = failure.code === 'command-not-found' && transport.type === 'stdio' ? failure.suggestion : undefined;
  // pasta failed: the narrow fix is this server's network off (never its sandbox).
  const networkOff = failure.code === 'private-network' && server.network;
  // Its browser could not make its own sandbox: the narrow fix is this server's own sandboxes on.
  const allowOwnSandboxes = failure.code === 'browser-sandbox' && server.ownSandboxes !== true;
  const stderr = failure.stderr ?? [];
  const title = failure.code === 'unreachable' || failure.code === 'http-status' ? t('failure.titleConnect') : t('failure.title');
  return (
    <div className="callout callout--danger failure" role="status" data-testid="server-failure">
      <p className="failure__lead">
        <AlertIcon className="failure__icon" />
        <strong>{title}:</strong> <span>{lead}</span>
      </p>
      {stderr.length > 0 && (
        <figure className="failure__said">
          <figcaption className="field-hint">{t('failure.serverSaid')}</figcaption>
          <pre className="failure__stderr">{stderr.join('\n')}</pre>
        </figure>
      )}
      {hint && (
        <p className="failure__hint">
          {hint}{' '}
          {suggestion && transport.type === 'stdio' && (
            <button
              type="button"
              className="button button--compact"
              disabled={fix.pending}
              // The masked env goes back as is: the host keeps the stored values behind a mask.
              onClick={() => void fix.run({ serverId: server.id, patch: { transport: { ...transport, command: suggestion } } })}
            >
              {t('failure.useSuggestion', { suggestion })}
            </button>
          )}
          {allowOwnSandboxes && (
            <button type="button" className="button button--compact" disabled={fix.pending} onClick={() => void fix.run({ serverId: server.id, patch: { ownSandboxes: true } })}>
              {t('failure.allowOwnSandboxes')}
            </button>
          )}
          {networkOff && (
            <button type="button" className="button button--compact" disabled={fix.pending} onClick={() => void fix.run({ serverId: server.id, patch: { network: false } })}>
              {t('failure.networkOff')}
            </button>
          )}
        </p>
      )}
      <InlineError error={fix.error} onDismiss={fix.clearError} />
      {failure.detail && !lead.includes(failure.detail) && (
        <details className="failure__detail">
          <summary>{t('failure.detail')}</summary>
          <p className="mono">{failure.detail}</p>
        </details>
      )}
    </div>
  );
}
