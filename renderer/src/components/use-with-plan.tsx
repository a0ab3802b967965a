// What "use with" would write (before) and what it wrote (after): the file, each entry with the
// exact command the host will run, what it replaces, and where the original was backed up.
import { useId } from 'react';
import type { UseWithApplyResult, UseWithEntryView, UseWithPreview } from '../../../shared/import-types.js';
import { useI18n } from '../i18n/i18n-context.js';
import { ConfigDiff } from './config-diff.js';
import { transportFull } from './transport-summary.js';

/** Nothing would change: every chosen server already runs through the proxy exactly so. */
export function nothingToWrite(plan: UseWithPreview): boolean {
  return plan.exists && plan.entries.every((entry) => entry.unchanged === true);
}

/** A server whose name the host already gives a different server, and nobody has said what to do. */
export function clashUndecided(plan: UseWithPreview): boolean {
  return plan.entries.some((entry) => entry.clash === 'undecided');
}

export function UseWithPlan({
  plan,
  host,
  chosen,
  onClash,
}: {
  plan: UseWithPreview;
  host: string;
  /** The answers given, shown at once while the preview with them in it is on its way. */
  chosen: Readonly<Record<string, 'replace' | 'add'>> | undefined;
  onClash(serverId: string, choice: 'replace' | 'add'): void;
}) {
  const { t } = useI18n();
  return (
    <section className="import-section use-with-plan" aria-labelledby="use-with-plan-title">
      <h3 id="use-with-plan-title" className="import-section__title" tabIndex={-1} data-step-focus>
        {t('useWith.planTitle')}
      </h3>
      <dl className="use-with-facts">
        <dt>{t('useWith.fileLabel')}</dt>
        <dd>
          <span className="mono">{plan.file}</span>{' '}
          <span className={`badge ${plan.exists ? 'badge--neutral' : 'badge--info'}`}>{plan.exists ? t('useWith.fileExists') : t('useWith.fileNew')}</span>
        </dd>
      </dl>
      <ul className="use-with-entries" aria-label={t('useWith.entriesLabel')}>
        {plan.entries.map((entry) => (
          <li key={entry.serverId} className="use-with-entry">
            <div className="import-candidate__top">
              <span className="import-candidate__name">{entry.entry}</span>
              <span className={`badge ${entry.clash === 'undecided' ? 'badge--warning' : entry.unchanged ? 'badge--neutral' : entry.replaced ? 'badge--warning' : 'badge--success'}`}>
                {entry.clash === 'undecided' ? t('useWith.clashBadge') : entry.unchanged ? t('useWith.unchanged') : entry.replaced ? t('useWith.replaces') : t('useWith.newEntry')}
              </span>
              {entry.entry !== entry.server && <span className="muted">{t('useWith.forServer', { name: entry.server })}</span>}
            </div>
            <code className="use-with-entry__command">{transportFull({ type: 'stdio', command: entry.command, args: entry.args, env: {} })}</code>
            {entry.clash && entry.addAs && <ClashChoice entry={{ ...entry, clash: chosen?.[entry.serverId] ?? entry.clash, addAs: entry.addAs }} host={host} onClash={onClash} />}
          </li>
        ))}
      </ul>
      {clashUndecided(plan) && (
        <p className="import-callout import-callout--warning" role="status">
          {t('useWith.clashPending')}
        </p>
      )}
      {nothingToWrite(plan) ? (
        <p className="import-callout" role="status">
          {t('useWith.nothingToWrite', { host })}
        </p>
      ) : (
        <>
          {plan.diff && plan.diff.length > 0 && (
            <>
              <h4 className="field-label">{t('useWith.diffTitle')}</h4>
              <ConfigDiff lines={plan.diff} label={t('useWith.diffTitle')} />
              <p className="field-hint">{t('useWith.diffMasked')}</p>
            </>
          )}
          {plan.exists && <p className="field-hint">{t('useWith.backupFirst')}</p>}
        </>
      )}
      {plan.commentsDropped && (
        <p className="import-callout import-callout--warning" role="status">
          {t('useWith.commentsDropped')}
        </p>
      )}
      <p className="field-hint">{t('useWith.restartHint', { host })}</p>
    </section>
  );
}

export function UseWithWritten({ result, host }: { result: UseWithApplyResult; host: string }) {
  const { t } = useI18n();
  return (
    <section className="import-section" aria-labelledby="use-with-written-title">
      <h3 id="use-with-written-title" className="import-section__title" tabIndex={-1} data-step-focus>
        {result.written.length === 0 ? t('useWith.wroteNothing') : t('useWith.writtenTitle', { count: result.written.length })}
      </h3>
      <dl className="use-with-facts">
        <dt>{t('useWith.fileLabel')}</dt>
        <dd className="mono">{result.file}</dd>
        <dt>{t('useWith.backupLabel')}</dt>
        <dd className={result.backup ? 'mono' : undefined}>{result.backup ?? (result.written.length === 0 ? t('useWith.noBackupNothing') : t('useWith.noBackup'))}</dd>
        {result.written.length > 0 && (
          <>
            <dt>{t('useWith.writtenLabel')}</dt>
            <dd>{result.written.join(', ')}</dd>
          </>
        )}
        {(result.unchanged ?? []).length > 0 && (
          <>
            <dt>{t('useWith.unchangedLabel')}</dt>
            <dd>{(result.unchanged ?? []).join(', ')}</dd>
          </>
        )}
        {result.replaced.length > 0 && (
          <>
            <dt>{t('useWith.replacedLabel')}</dt>
            <dd>{result.replaced.join(', ')}</dd>
          </>
        )}
      </dl>
      {result.commentsDropped && (
        <p className="import-callout import-callout--warning" role="status">
          {t('useWith.commentsDroppedDone')}
        </p>
      )}
      <p className="import-callout" role="status">
        {t('useWith.restartNow', { host })}
      </p>
    </section>
  );
}

/**
 * The host already has a different server under this name: add ours beside it, or replace it.
 * Neither is chosen for the person (the host's own server may point at other folders).
 */
function ClashChoice({
  entry,
  host,
  onClash,
}: {
  entry: UseWithEntryView & { clash: 'undecided' | 'replace' | 'add'; addAs: string };
  host: string;
  onClash(serverId: string, choice: 'replace' | 'add'): void;
}) {
  const { t } = useI18n();
  const id = useId();
  return (
    <fieldset className="use-with-clash" aria-describedby={`${id}-why`}>
      <legend id={`${id}-why`} className="use-with-clash__why">
        {t('useWith.clashWhy', { host, name: entry.server })}
      </legend>
      {(['add', 'replace'] as const).map((choice) => (
        <label key={choice} className="checkbox-label">
          <input type="radio" className="checkbox" name={`${id}-clash`} value={choice} checked={entry.clash === choice} onChange={() => onClash(entry.serverId, choice)} />
          {choice === 'add' ? t('useWith.clashAdd', { name: entry.addAs }) : t('useWith.clashReplace', { host, name: entry.server })}
        </label>
      ))}
    </fieldset>
  );
}
