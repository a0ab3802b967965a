// "Removed website · Undo": the newest removal or revoke can be taken back from here. It stays until
// used, dismissed or replaced (no timer: a person who reads slowly must not lose it), and the
// result is said in the same place.
import { useEffect, useState } from 'react';
import type { HostError } from '../../../shared/result.js';
import { callSafely } from '../call-safely.js';
import { useHost } from '../host-context.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useUndoOffer, withdrawUndo } from '../undo-offer.js';
import { CloseIcon } from './icons.js';
import { InlineError } from './inline-error.js';

export function UndoToast() {
  const { t } = useI18n();
  const { client } = useHost();
  const offer = useUndoOffer();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<HostError | undefined>();
  useEffect(() => {
    setError(undefined);
  }, [offer]);

  return (
    <div className="toast-region" role="status" aria-live="polite">
      {offer && (
        <div className="toast" data-testid="undo-toast">
          <p className="toast__text">{offer.text}</p>
          <button
            type="button"
            className="button button--compact"
            disabled={pending}
            onClick={async () => {
              setPending(true);
              const result = await callSafely(client, 'undo.apply', { undoId: offer.undoId });
              setPending(false);
              if (result.ok) withdrawUndo(offer);
              else setError(result.error);
            }}
          >
            {t('undo.action')}
          </button>
          <button type="button" className="icon-button" aria-label={t('undo.dismiss')} onClick={() => withdrawUndo(offer)}>
            <CloseIcon />
          </button>
          <InlineError error={error} onDismiss={() => setError(undefined)} />
        </div>
      )}
    </div>
  );
}
