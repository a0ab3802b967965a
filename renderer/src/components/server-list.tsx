// The servers at a glance: name, live state, how it runs (the OS sandbox badge). Picking one shows its details beside.
import { memo } from 'react';
import type { ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useProxiesByServer } from '../use-host-state.js';
import { failureSummary, failureWords } from '../../../shared/i18n/server-failure-text.js';
import { ConfinementBadge } from './confinement-badge.js';
import { PreparingNote } from './preparing-note.js';
import { StatusBadge } from './status-badge.js';
import { transportSummary } from './transport-summary.js';

export function ServerList({ servers, selectedId, onSelect }: { servers: ServerView[]; selectedId: string | undefined; onSelect(id: string): void }) {
  const { t } = useI18n();
  const proxies = useProxiesByServer();
  return (
    <nav className="server-list" aria-label={t('servers.listLabel')}>
      <ul>
        {servers.map((server) => (
          <ServerListItem
            key={server.id}
            server={server}
            proxied={(proxies.get(server.id) ?? []).filter((session) => session.state !== 'stopped').length}
            selected={server.id === selectedId}
            onSelect={onSelect}
          />
        ))}
      </ul>
    </nav>
  );
}

interface ServerListItemProps {
  server: ServerView;
  /** How many live `mcp-roots proxy` sessions other apps run for this server. */
  proxied: number;
  selected: boolean;
  onSelect(id: string): void;
}

const ServerListItem = memo(function ServerListItem({ server, proxied, selected, onSelect }: ServerListItemProps) {
  const { t } = useI18n();
  return (
    <li>
      <button
        type="button"
        className={`server-list__item${selected ? ' server-list__item--selected' : ''}`}
        aria-current={selected ? 'true' : undefined}
        onClick={() => onSelect(server.id)}
      >
        <span className="server-list__top">
          <span className="server-list__name">{server.name}</span>
          <StatusBadge state={server.status.state} lifecycle={server.status.lifecycle} />
        </span>
        <span className="server-list__meta">
          <span className="server-list__transport">{transportSummary(server.transport)}</span>
        </span>
        <span className="server-list__meta">
          <ConfinementBadge server={server} />
        </span>
        <span className="server-list__meta">
          {t('servers.seesCount', { count: server.effectiveRootIds.length })}
          {!server.sharing && <span> · {t('servers.sharingOff')}</span>}
        </span>
        {server.status.preparing && (
          <span className="server-list__meta">
            <PreparingNote preparing={server.status.preparing} compact />
          </span>
        )}
        {server.status.state === 'error' && server.status.failure && (
          // The selected one's details beside quote its words in full: here only what happened, so
          // its stderr line is not on the screen twice (#30 item 5).
          <span className="server-list__meta server-list__failure">{selected ? failureWords(t, server.status.failure).lead : failureSummary(t, server.status.failure)}</span>
        )}
        {proxied > 0 && <span className="server-list__meta server-list__proxy">{t('proxy.listHint', { count: proxied })}</span>}
      </button>
    </li>
  );
});
