// The four screens as ARIA tabs: arrow keys move between tabs, Tab moves into the panel.
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useI18n } from '../i18n/i18n-context.js';

export type TabId = 'roots' | 'access' | 'servers' | 'history';

export interface TabInfo {
  id: TabId;
  label: string;
  icon: ReactNode;
  count?: number | undefined;
  attention?: boolean;
}

export function AppTabs({ tabs, current, onChange }: { tabs: TabInfo[]; current: TabId; onChange(tab: TabId): void }) {
  const { t } = useI18n();
  const refs = useRef(new Map<TabId, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent) => {
    // Arrows move from the tab that has focus (which a click elsewhere may have left unselected),
    // as the ARIA tabs pattern says; the selected tab is only the fallback.
    const focused = tabs.findIndex((tab) => refs.current.get(tab.id) === event.target);
    const index = focused >= 0 ? focused : tabs.findIndex((tab) => tab.id === current);
    const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    let next: number;
    if (delta) next = (index + delta + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    else return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onChange(tab.id);
    refs.current.get(tab.id)?.focus();
  };
  return (
    <div role="tablist" aria-label={t('app.sections')} className="tabs" onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button
          key={tab.id}
          ref={(element) => {
            if (element) refs.current.set(tab.id, element);
          }}
          type="button"
          role="tab"
          id={`tab-${tab.id}`}
          aria-selected={tab.id === current}
          aria-controls={`panel-${tab.id}`}
          tabIndex={tab.id === current ? 0 : -1}
          className="tabs__tab"
          onClick={() => onChange(tab.id)}
        >
          {tab.icon}
          <span>{tab.label}</span>
          {tab.count !== undefined && <span className={`tabs__count${tab.attention ? ' tabs__count--attention' : ''}`}>{tab.count}</span>}
        </button>
      ))}
    </div>
  );
}
