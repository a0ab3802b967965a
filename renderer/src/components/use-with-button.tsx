// The "Use with…" button and the dialog it opens, self-contained so any header can hold it.
import { useState } from 'react';
import { useI18n } from '../i18n/i18n-context.js';
import { LinkIcon } from './icons.js';
import { UseWithDialog } from './use-with-dialog.js';

/** serverId: the server the person opened it from (its detail), ticked to start with; none from a general place. */
export function UseWithButton({ serverId, compact = false }: { serverId?: string | undefined; compact?: boolean }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={`button${compact ? ' button--compact' : ''}`} onClick={() => setOpen(true)} aria-haspopup="dialog">
        <LinkIcon /> {t('useWith.open')}
      </button>
      <UseWithDialog open={open} serverId={serverId} onClose={() => setOpen(false)} />
    </>
  );
}
