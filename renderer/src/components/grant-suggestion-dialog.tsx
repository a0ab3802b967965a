// Confirms a grant the server itself suggested. The folder in "Blocked by the sandbox" comes from
// the server's own output, and a hostile server can print any path ("ENOENT … ~/.ssh/id_ed25519")
// to be offered it. So one click never grants it: this dialog shows the exact folder, says where
// the path came from, starts on read-only, and warns plainly where the folder is sensitive.
import { useId, useState } from 'react';
import type { GrantMode } from '../../../shared/domain.js';
import type { SandboxBlock } from '../../../shared/sandbox.js';
import { useI18n } from '../i18n/i18n-context.js';
import { Dialog } from './dialog.js';
import { SENSITIVE_WARNING } from './sensitive-words.js';
import { InlineError } from './inline-error.js';
import type { HostError } from '../../../shared/result.js';

const sensitiveWarning = SENSITIVE_WARNING;

export interface GrantSuggestionDialogProps {
  open: boolean;
  serverName: string;
  blocked: SandboxBlock;
  pending: boolean;
  error?: HostError | undefined;
  onGrant(mode: GrantMode): void;
  onCancel(): void;
}

export function GrantSuggestionDialog({ open, serverName, blocked, pending, error, onGrant, onCancel }: GrantSuggestionDialogProps) {
  const { t } = useI18n();
  const id = useId();
  // Asked to write in a folder it may read: the only question is whether to allow writing.
  const writing = blocked.kind === 'read-only-grant';
  const [mode, setMode] = useState<GrantMode>(writing ? 'read-write' : 'read-only');
  return (
    <Dialog
      open={open}
      title={writing ? t('grantSuggestion.titleWriting') : t('grantSuggestion.title')}
      onClose={onCancel}
      size="small"
      role="alertdialog"
      testId="grant-suggestion"
      description={
        <>
          <p>{t('grantSuggestion.fromOutput', { server: serverName })}</p>
          <p className="grant-suggestion__folder">
            <code>{blocked.folder}</code>
          </p>
        </>
      }
      footer={
        <>
          <button type="button" className="button" onClick={onCancel} data-autofocus>
            {t('common.cancel')}
          </button>
          <button type="button" className={`button ${blocked.sensitive ? 'button--danger' : 'button--primary'}`} onClick={() => onGrant(mode)} disabled={pending}>
            {mode === 'read-only' ? t('grantSuggestion.grantReadOnly') : t('grantSuggestion.grantReadWrite')}
          </button>
        </>
      }
    >
      {blocked.sensitive && (
        <p className="callout callout--danger grant-suggestion__warning" role="alert">
          {t(sensitiveWarning[blocked.sensitive])}
        </p>
      )}
      {!writing && (
        <fieldset className="grant-suggestion__modes">
          <legend className="field-label">{t('grantSuggestion.mode')}</legend>
          {(['read-only', 'read-write'] as const).map((choice) => (
            <label key={choice} className="checkbox-label">
              <input type="radio" className="checkbox" name={`${id}-mode`} value={choice} checked={mode === choice} onChange={() => setMode(choice)} />
              {choice === 'read-only' ? t('grantSuggestion.readOnly') : t('grantSuggestion.readWrite')}
            </label>
          ))}
        </fieldset>
      )}
      <InlineError error={error} />
    </Dialog>
  );
}
