// Facts every MCP session has, whether the app runs it or a proxy does: the negotiated protocol
// (and so whether the server is pushed list changes or asks on every call), and how often roots
// were asked for and changes announced.
import type { EraReason } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';

export interface SessionCounters {
  protocolVersion?: string | undefined;
  era?: 'legacy' | 'modern' | undefined;
  /** Why that era (era-choice.ts decides). */
  eraReason?: EraReason | undefined;
  /** false: it does not ask again after list_changed, so changes reach it by a restart. */
  rereadsRoots?: boolean | undefined;
  rootsRequestCount: number;
  listChangedCount: number;
}

export function SessionFacts({ session }: { session: SessionCounters }) {
  const { t } = useI18n();
  return (
    <>
      <div className="facts__item">
        <dt>{t('servers.factProtocol')}</dt>
        <dd>
          {session.protocolVersion ?? <span className="muted">—</span>}
          {session.era && <span className="facts__sub">{session.era === 'modern' ? t('servers.eraModern') : t('servers.eraLegacy')}</span>}
          {session.eraReason && <span className="facts__sub">{t(`servers.eraWhy.${session.eraReason}` satisfies MessageKey)}</span>}
        </dd>
      </div>
      <div className="facts__item">
        <dt>{t('servers.factRequests')}</dt>
        <dd>
          <span data-testid="roots-request-count">{t('servers.requestCount', { count: session.rootsRequestCount })}</span>
          <span className="facts__sub">{t('servers.listChangedCount', { count: session.listChangedCount })}</span>
          {session.rereadsRoots === false && <span className="facts__sub">{t('servers.rereadsNote')}</span>}
        </dd>
      </div>
    </>
  );
}
