// The window: header (sections, language, theme), what needs attention now (connection, consent
// prompts, notices), then the chosen screen.
import { useEffect, useMemo, useState } from 'react';
import { I18nProvider, useI18n } from '../i18n/i18n-context.js';
import { resolveLocale } from '../../../shared/i18n/translate.js';
import { useHost } from '../host-context.js';
import { useConsentRequests, useHostSnapshot, useRoots, useServers, useSettings } from '../use-host-state.js';
import { useAppliedTheme } from '../use-theme.js';
import { AccessPanel } from './access-panel.js';
import { AppTabs, type TabId, type TabInfo } from './app-tabs.js';
import { ConnectionBanner } from './connection-banner.js';
import { ConsentSummary } from './consent-summary.js';
import { FolderIcon, GridIcon, HistoryIcon, ServerIcon, ShieldIcon } from './icons.js';
import { HistoryPanel } from './history-panel.js';
import { InlineError } from './inline-error.js';
import { NoticeList } from './notice-list.js';
import { PreferencesBar } from './preferences-bar.js';
import { RootsPanel } from './roots-panel.js';
import { ServersPanel } from './servers-panel.js';
import { UndoToast } from './undo-toast.js';

export function App() {
  const settings = useSettings();
  useAppliedTheme(settings?.theme);
  const locale = resolveLocale(settings?.locale, navigator.languages ?? [navigator.language]);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  return (
    <I18nProvider locale={locale}>
      <Shell />
    </I18nProvider>
  );
}

function Shell() {
  const { t } = useI18n();
  const { state, loadError } = useHostSnapshot();
  const { store } = useHost();
  useEffect(() => {
    document.title = t('app.title');
  }, [t]);

  if (!state) {
    return (
      <main className="splash">
        <ShieldIcon size={32} />
        {loadError ? (
          <>
            <InlineError error={loadError} />
            <button type="button" className="button" onClick={() => store.reload()}>
              {t('common.retry')}
            </button>
          </>
        ) : (
          <p role="status">
            <span className="spinner" aria-hidden="true" /> {t('app.loading')}
          </p>
        )}
      </main>
    );
  }
  return <Workspace />;
}

function Workspace() {
  const { t } = useI18n();
  const settings = useSettings();
  const roots = useRoots();
  const servers = useServers();
  const consent = useConsentRequests();
  const [tab, setTab] = useState<TabId>(() => (roots.length === 0 ? 'roots' : 'access'));
  const [serverId, setServerId] = useState<string | undefined>();

  const tabs = useMemo<TabInfo[]>(
    () => [
      {
        id: 'roots',
        label: t('tabs.roots'),
        icon: <FolderIcon />,
        count: roots.length,
        attention: roots.some((root) => root.access.state !== 'ok' && root.access.state !== 'checking'),
      },
      { id: 'access', label: t('tabs.access'), icon: <GridIcon /> },
      {
        id: 'servers',
        label: t('tabs.servers'),
        icon: <ServerIcon />,
        count: servers.length,
        attention: servers.some((server) => server.status.state === 'error'),
      },
      { id: 'history', label: t('tabs.history'), icon: <HistoryIcon /> },
    ],
    [t, roots, servers],
  );
  const serversById = useMemo(() => new Map(servers.map((server) => [server.id, server])), [servers]);

  return (
    <div className="app">
      {/* First in the tab order: past the header and its controls, straight to the screen. */}
      <a
        className="skip-link"
        href="#main-content"
        onClick={(event) => {
          // Focus moves without touching the address (the browser shell reads its token from there).
          event.preventDefault();
          document.getElementById('main-content')?.focus();
        }}
      >
        {t('app.skipToContent')}
      </a>
      <header className="app__header">
        <div className="brand">
          <ShieldIcon size={20} className="brand__icon" />
          <span className="brand__name">{t('app.title')}</span>
        </div>
        <AppTabs tabs={tabs} current={tab} onChange={setTab} />
        {settings && <PreferencesBar settings={settings} />}
      </header>
      <section className="app__alerts" aria-label={t('app.alerts')}>
        <ConnectionBanner />
        <div aria-live="polite" className="app__consent">
          <ConsentSummary requests={consent} serversById={serversById} />
        </div>
        <NoticeList />
      </section>
      <main className="app__main" id="main-content" tabIndex={-1}>
        <div className="app__tabpanel" id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`}>
          {tab === 'roots' && <RootsPanel />}
          {tab === 'access' && <AccessPanel onNavigate={setTab} />}
          {tab === 'servers' && <ServersPanel selectedId={serverId} onSelect={setServerId} />}
          {tab === 'history' && <HistoryPanel />}
        </div>
      </main>
      <UndoToast />
    </div>
  );
}
