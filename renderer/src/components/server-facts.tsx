// The live facts about one connection: what was negotiated, and what the server last asked and
// was told. This is the "did my change reach it?" answer, so it is the truth of this session only:
// a switched-off server has none, a server with sharing off is offered nothing, the answer's folders
// are shown by name and decoded path, and a shared folder the server cannot see says why.
import type { HostEnvironment, InboundLimitation, RootView, ServerView } from '../../../shared/domain.js';
import type { SecretPlacement } from '../../../shared/secrets.js';
import { uriToPath } from '../file-path.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import { useHostSelector } from '../use-host-state.js';
import { useNow } from '../use-now.js';
import { accessLabelKey } from './access-badge.js';
import { accessReasonText } from './access-reason.js';
import { SessionFacts } from './session-facts.js';
import { transportFull } from './transport-summary.js';

export function ServerFacts({ server, rootsByUri, rootsById }: { server: ServerView; rootsByUri: Map<string, RootView>; rootsById: Map<string, RootView> }) {
  const { t, formatRelative, formatTime } = useI18n();
  const now = useNow();
  const { status } = server;
  const last = status.lastRootsRequest;
  const running = server.enabled && status.state !== 'disabled';
  const dash = <span className="muted">—</span>;
  const effective = new Set(server.effectiveRootIds);
  // A mapped folder is told at the server's own path: its URI names that path, not the host's.
  const mappedByUri = new Map(server.mappedFolders.map((mapped) => [mapped.uri, rootsById.get(mapped.rootId)]));
  const hidden = server.grantedRootIds.filter((id) => !effective.has(id));

  const hiddenReason = (root: RootView | undefined): string => {
    if (!server.enabled) return t('servers.hiddenDisabled');
    if (!server.sharing) return t('servers.hiddenSharingOff');
    if (root && root.access.state !== 'ok') {
      const state = t(accessLabelKey[root.access.state]);
      const reason = accessReasonText(t, root.access);
      return reason ? t('servers.hiddenReason', { state, reason }) : state;
    }
    return t('servers.hiddenOther');
  };

  return (
    <dl className="facts">
      <div className="facts__item facts__item--wide">
        <dt>{server.transport.type === 'stdio' ? t('servers.factCommand') : t('servers.factUrl')}</dt>
        <dd className="mono facts__transport" title={transportFull(server.transport)}>
          {transportFull(server.transport)}
        </dd>
      </div>
      {server.transport.type === 'stdio' && isNpx(server.transport.command) && <NpxFact />}
      {running ? (
        <>
          <div className="facts__item">
            <dt>{t('servers.factServer')}</dt>
            <dd>{status.serverInfo ? `${status.serverInfo.name} ${status.serverInfo.version}` : dash}</dd>
          </div>
          <SessionFacts session={status} />
        </>
      ) : (
        <div className="facts__item facts__item--wide">
          <dt>{t('servers.factSession')}</dt>
          <dd className="muted">{t('servers.notRunning')}</dd>
        </div>
      )}
      <div className="facts__item facts__item--wide" data-testid="sees-now">
        <dt>{t('servers.factSees')}</dt>
        <dd>
          {t('servers.seesOfGranted', { count: server.effectiveRootIds.length, granted: server.grantedRootIds.length })}
          {hidden.length > 0 && (
            <ul className="facts__uris facts__hidden" aria-label={t('servers.hiddenList')}>
              {hidden.map((id) => {
                const root = rootsById.get(id);
                return (
                  <li key={id}>
                    <span className="facts__rootname">{root?.name ?? id}</span> <span className="muted">— {hiddenReason(root)}</span>
                  </li>
                );
              })}
            </ul>
          )}
        </dd>
      </div>
      {server.mappedFolders.length > 0 && (
        <div className="facts__item facts__item--wide" data-testid="mapped-folders">
          <dt>{t('servers.factMapped')}</dt>
          <dd>
            <ul className="facts__uris" aria-label={t('servers.factMapped')}>
              {server.mappedFolders.map((mapped) => {
                const root = rootsById.get(mapped.rootId);
                return (
                  <li key={mapped.rootId}>
                    {root && <span className="facts__rootname">{root.name} </span>}
                    <span className="mono">{root?.path ?? mapped.rootId}</span>
                    <span aria-hidden="true"> → </span>
                    <span className="visually-hidden"> {t('servers.mappedTo')} </span>
                    <span className="mono">{mapped.serverPath}</span>
                  </li>
                );
              })}
            </ul>
          </dd>
        </div>
      )}
      {(server.secrets ?? []).length > 0 && <SecretFacts secrets={server.secrets ?? []} />}
      {status.limited && (
        <div className="facts__item facts__item--wide" data-testid="limited-fact">
          <dt>{t('servers.factLimited')}</dt>
          <dd>
            {t(LIMITED_TEXT[status.limited.kind], { limit: status.limited.limit })}
            <span className="facts__sub">
              <time dateTime={new Date(status.limited.at).toISOString()} title={formatTime(status.limited.at)}>
                {formatRelative(status.limited.at, now)}
              </time>
            </span>
          </dd>
        </div>
      )}
      {running && (
        <div className="facts__item facts__item--wide" data-testid="last-roots-request">
          <dt>{t('servers.factLastRequest')}</dt>
          <dd>
            {!server.sharing ? (
              <span className="muted">{t('servers.sharingOffFacts')}</span>
            ) : last ? (
              <>
                <time dateTime={new Date(last.at).toISOString()} title={formatTime(last.at)}>
                  {formatRelative(last.at, now)}
                </time>
                {' — '}
                {last.uris.length === 0 ? t('servers.answeredNothing') : t('servers.answered', { count: last.uris.length })}
                {last.uris.length > 0 && (
                  <ul className="facts__uris" aria-label={t('servers.answerList')}>
                    {last.uris.map((uri) => {
                      const root = rootsByUri.get(uri) ?? mappedByUri.get(uri);
                      return (
                        <li key={uri} title={uri}>
                          {root && <span className="facts__rootname">{root.name} </span>}
                          <span className="mono">{uriToPath(uri)}</span>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </>
            ) : (
              <span className="muted">{t('servers.neverAsked')}</span>
            )}
          </dd>
        </div>
      )}
    </dl>
  );
}

const LIMITED_TEXT: Record<InboundLimitation['kind'], MessageKey> = {
  'message-rate': 'servers.limitedRate',
  'long-line': 'servers.limitedLongLine',
  flood: 'servers.limitedFlood',
};

const isNpx = (command: string): boolean => /(^|[\\/])npx(\.cmd|\.exe)?$/i.test(command);
const selectEnvironment = (state: { environment?: HostEnvironment }) => state.environment;

/** Which npx a server started as `npx …` runs: an app opened from a menu may not have the shell's. */
function NpxFact() {
  const { t } = useI18n();
  const environment = useHostSelector(selectEnvironment, undefined);
  if (!environment) return null;
  return (
    <div className="facts__item facts__item--wide" data-testid="npx-fact">
      <dt>{t('servers.factNpx')}</dt>
      <dd>
        {environment.npx ? <span className="mono">{environment.npx}</span> : <span className="muted">{t('servers.npxMissing')}</span>}
        <span className="facts__sub">
          {environment.pathSource === 'login-shell' && environment.shell
            ? t('servers.npxFromShell', { shell: environment.shell })
            : t('servers.npxInherited')}
        </span>
      </dd>
    </div>
  );
}

const STORAGE_KEY = {
  keychain: 'servers.secretKeychain',
  unencrypted: 'servers.secretUnencrypted',
  unreadable: 'servers.secretUnreadable',
} as const satisfies Record<SecretPlacement['storage'], MessageKey>;

const KIND_KEY = {
  env: 'servers.secretKindEnv',
  header: 'servers.secretKindHeader',
  url: 'servers.secretKindUrl',
} as const satisfies Record<SecretPlacement['kind'], MessageKey>;

/** Where each secret is kept: nobody should find out later that a token sat in a file in clear. */
function SecretFacts({ secrets }: { secrets: readonly SecretPlacement[] }) {
  const { t } = useI18n();
  return (
    <div className="facts__item facts__item--wide" data-testid="secret-storage">
      <dt>{t('servers.factSecrets')}</dt>
      <dd>
        <ul className="facts__secrets">
          {secrets.map((secret) => (
            <li key={`${secret.kind}:${secret.name}`} className={`facts__secret facts__secret--${secret.storage}`}>
              <span className="mono">{secret.name}</span> <span className="muted">({t(KIND_KEY[secret.kind])})</span>
              {' — '}
              {t(STORAGE_KEY[secret.storage])}
            </li>
          ))}
        </ul>
      </dd>
    </div>
  );
}
