// The server as other apps run it: each `mcp-roots proxy` a host (Claude Desktop, Cursor…) started
// for it, whose roots policy it follows, and what it last told the server. The same "did my change
// reach it?" facts as for the app's own connection, and how that process runs (its own sandbox).
import type { ProxiedSession, ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useNow } from '../use-now.js';
import { Badge } from './access-badge.js';
import { lifecycleLabelKey, lifecycleTone } from './connection-words.js';
import { DrainNote } from './drain-note.js';
import { hostReason, LookBadge } from './confinement-badge.js';
import { proxySessionLook } from './confinement-view.js';
import { SessionFacts } from './session-facts.js';


export function ProxySessions({ server, sessions }: { server: Pick<ServerView, 'transport' | 'sandbox'>; sessions: readonly ProxiedSession[] }) {
  const { t } = useI18n();
  if (sessions.length === 0) return null;
  return (
    <section className="proxy-sessions" aria-labelledby="proxy-sessions-title">
      <h3 id="proxy-sessions-title" className="section-title">
        {t('proxy.title')}
      </h3>
      <p className="muted proxy-sessions__lead">{t('proxy.lead')}</p>
      <ul className="proxy-sessions__list">
        {sessions.map((session) => (
          <ProxySessionItem key={session.proxyPid} server={server} session={session} />
        ))}
      </ul>
    </section>
  );
}

function ProxySessionItem({ server, session }: { server: Pick<ServerView, 'transport' | 'sandbox'>; session: ProxiedSession }) {
  const { t, formatRelative, formatTime } = useI18n();
  const now = useNow();
  const host = session.host ? `${session.host.name} ${session.host.version}` : t('proxy.unknownHost');
  const last = session.lastRootsRequest;
  return (
    <li className="proxy-sessions__item" aria-label={t('proxy.sessionLabel', { host })}>
      <div className="proxy-sessions__top">
        <span className="proxy-sessions__host">{host}</span>
        {/* A session that ended with an error is shown as the failure it is. */}
        <Badge tone={session.state === 'stopped' && session.error ? 'danger' : lifecycleTone[session.state]} title={session.error}>
          {t(lifecycleLabelKey[session.state])}
        </Badge>
        <span className="muted mono proxy-sessions__pid">{t('proxy.pid', { pid: String(session.proxyPid) })}</span>
      </div>
      <DrainNote draining={session.draining} />
      {/* Its own process, its own sandbox (another app's PATH may lack bwrap). */}
      {session.confinement && <LookBadge look={proxySessionLook(server, session)} hostReason={hostReason(session.confinement)} />}
      <dl className="facts facts--compact">
        <div className="facts__item">
          <dt>{t('proxy.policy')}</dt>
          <dd>
            {session.rootsPolicy === 'host' ? t('proxy.policyHost') : t('proxy.policyRegistry')}
            {session.hostOffersRoots && <span className="facts__sub">{t('proxy.hostOffersRoots')}</span>}
          </dd>
        </div>
        <SessionFacts session={session} />
        <div className="facts__item">
          <dt>{t('servers.factLastRequest')}</dt>
          <dd>
            {last ? (
              <>
                <time dateTime={new Date(last.at).toISOString()} title={formatTime(last.at)}>
                  {formatRelative(last.at, now)}
                </time>
                <span className="facts__sub">
                  {last.uris.length === 0 ? t('servers.answeredNothing') : t('servers.answered', { count: last.uris.length })}
                  {last.uris.length > 0 && <span className="mono"> {last.uris.join(', ')}</span>}
                </span>
              </>
            ) : (
              <span className="muted">{t('servers.neverAsked')}</span>
            )}
          </dd>
        </div>
      </dl>
      {session.error && (
        <div className="callout callout--danger" role="status">
          <strong>{t('servers.lastError')}</strong> <span className="mono">{session.error}</span>
        </div>
      )}
    </li>
  );
}
