// Import, step three: what was added (and which ones start switched off, and why), what the registry
// refused with its reason, and the reminder that no folder was shared.
import { PASTED_SOURCE, type ImportApplyResult, type ImportPreviewView } from '../../../shared/import-types.js';
import { useI18n } from '../i18n/i18n-context.js';
import { HOST_LABELS } from './import-hosts.js';
import { InlineError } from './inline-error.js';
import { transportFull } from './transport-summary.js';

export function ImportOutcome({ preview, outcome }: { preview: ImportPreviewView; outcome: ImportApplyResult }) {
  const { t } = useI18n();
  const candidates = new Map(preview.candidates.map((candidate) => [candidate.key, candidate]));
  return (
    <>
      <section className="import-section" aria-labelledby="import-added-title">
        <h3 id="import-added-title" className="import-section__title" tabIndex={-1} data-step-focus>
          {t('import.addedTitle', { count: outcome.added.length })}
        </h3>
        {outcome.added.length > 0 && (
          <>
            <ul className="import-added">
              {outcome.added.map(({ key, server, unresolved }) => {
                const candidate = candidates.get(key);
                return (
                  <li key={key} className="import-added__item">
                    <div className="import-candidate__top">
                      <span className="import-candidate__name">{server.name}</span>
                      {candidate && (
                        <span className="badge badge--neutral">{t('import.fromHost', { host: candidate.source === PASTED_SOURCE ? t('import.pastedConfig') : HOST_LABELS[candidate.host] })}</span>
                      )}
                      <span className={`badge ${server.enabled ? 'badge--success' : 'badge--warning'}`}>
                        <span className="badge__dot" />
                        {server.enabled ? t('import.addedOn') : t('import.addedOff')}
                      </span>
                    </div>
                    <p className="import-candidate__transport mono">{transportFull(server.transport)}</p>
                    {unresolved.length > 0 ? (
                      <p className="field-hint field-hint--warning">
                        {t('import.addedUnresolved', { count: unresolved.length })} <code>{unresolved.join(' ')}</code>
                      </p>
                    ) : (
                      !server.enabled &&
                      (candidate?.disabledInHost ? (
                        <p className="field-hint">{t('import.addedOffInHost', { host: HOST_LABELS[candidate.host] })}</p>
                      ) : (
                        <p className="field-hint">{t('import.addedOffChosen')}</p>
                      ))
                    )}
                  </li>
                );
              })}
            </ul>
            <p className="import-callout">{t('import.noFoldersYet')}</p>
          </>
        )}
      </section>

      {outcome.failed.length > 0 && (
        <section className="import-section" aria-labelledby="import-failed-title">
          <h3 id="import-failed-title" className="import-section__title">
            {t('import.failedTitle', { count: outcome.failed.length })}
          </h3>
          <ul className="import-failed">
            {outcome.failed.map((failure) => (
              <li key={failure.key}>
                <strong>{failure.name}</strong>
                <InlineError error={failure.error} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
