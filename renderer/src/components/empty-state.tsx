// Empty screens teach: what the thing is, why it matters, and the one action to take next.
import type { ReactNode } from 'react';

export function EmptyState({ icon, title, children, action }: { icon: ReactNode; title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <div className="empty-state__icon" aria-hidden="true">
        {icon}
      </div>
      <h2 className="empty-state__title">{title}</h2>
      <div className="empty-state__body">{children}</div>
      {action && <div className="empty-state__action">{action}</div>}
    </div>
  );
}
