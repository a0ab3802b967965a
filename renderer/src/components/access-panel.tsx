// The Access screen: the consent matrix, or what to do first when there is nothing to match up.
import { useI18n } from '../i18n/i18n-context.js';
import { useRoots, useServers } from '../use-host-state.js';
import type { TabId } from './app-tabs.js';
import { ConsentMatrix } from './consent-matrix.js';
import { EmptyState } from './empty-state.js';
import { FolderIcon, GridIcon, ServerIcon } from './icons.js';

export function AccessPanel({ onNavigate }: { onNavigate(tab: TabId): void }) {
  const { t } = useI18n();
  const roots = useRoots();
  const servers = useServers();
  const ready = roots.length > 0 && servers.length > 0;
  return (
    <section className="panel panel--fill" aria-labelledby="access-title">
      <header className="panel__header">
        <div>
          <h1 id="access-title" className="panel__title">
            {t('access.title')}
          </h1>
          <p className="panel__lead">{t('access.lead')}</p>
        </div>
      </header>
      {ready ? (
        <ConsentMatrix roots={roots} servers={servers} />
      ) : (
        <EmptyState
          icon={<GridIcon size={28} />}
          title={t('access.emptyTitle')}
          action={
            <>
              {roots.length === 0 && (
                <button type="button" className="button button--primary" onClick={() => onNavigate('roots')}>
                  <FolderIcon /> {t('access.goRoots')}
                </button>
              )}
              {servers.length === 0 && (
                <button type="button" className={`button${roots.length === 0 ? '' : ' button--primary'}`} onClick={() => onNavigate('servers')}>
                  <ServerIcon /> {t('access.goServers')}
                </button>
              )}
            </>
          }
        >
          <p>{t('access.emptyBody')}</p>
        </EmptyState>
      )}
    </section>
  );
}
