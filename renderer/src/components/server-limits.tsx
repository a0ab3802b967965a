// A confined server's limits in its detail: each value in force (its own setting or the default),
// whether the last self-check read it in the running process (never claimed otherwise), the private
// HOME on disk as not capped, and a form to change them within their bounds (shared/server-limits.ts).
// Saving restarts a running confined server (roots-change-policy.ts), and the form says so.
import { useId, useState, type FormEvent } from 'react';
import type { ServerView } from '../../../shared/domain.js';
import { effectiveLimits, LIMIT_NAMES, LIMIT_RANGES, type ServerLimitName, type ServerLimits } from '../../../shared/server-limits.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import { useCommand } from '../use-command.js';
import { InlineError } from './inline-error.js';
import { BoundedNumberField } from './bounded-number-field.js';

const LABELS: Record<ServerLimitName, MessageKey> = {
  tasks: 'limits.tasks',
  memoryMiB: 'limits.memory',
  tmpMiB: 'limits.tmp',
  files: 'limits.files',
};
const IN_MIB = new Set<ServerLimitName>(['memoryMiB', 'tmpMiB']);

export function ServerLimitsPanel({ server }: { server: ServerView }) {
  const { t } = useI18n();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const headingId = useId();
  // Limits are the sandbox's: a remote server runs elsewhere, and a container is docker's.
  if (server.transport.type !== 'stdio') return null;
  const values = effectiveLimits(server.limits);
  const confinement = server.status.confinement;
  const check = confinement?.state === 'enforced' && confinement.selfCheck?.verified ? confinement.selfCheck : undefined;
  const unit = (name: ServerLimitName, value: number) => t(IN_MIB.has(name) ? 'limits.valueMiB' : 'limits.value', { value });
  const proof = (name: ServerLimitName) => {
    const proven = check?.limits?.[name];
    if (proven === true) return <span className="limits__proof limits__proof--ok">{t('limits.enforced')}</span>;
    if (proven === false) return <span className="limits__proof limits__proof--warn">{t('limits.notLimited')}</span>;
    return <span className="limits__proof muted">{t('limits.notProven')}</span>;
  };
  return (
    <section className="limits" aria-labelledby={headingId}>
      <div className="limits__header">
        <h3 id={headingId} className="limits__title">
          {t('limits.heading')}
        </h3>
        {!editing && (
          <button type="button" className="button button--compact" onClick={() => (setSaved(false), setEditing(true))}>
            {t('limits.change')}
          </button>
        )}
      </div>
      {editing ? (
        <LimitsForm server={server} onDone={(didSave) => (setEditing(false), setSaved(didSave))} />
      ) : (
        <dl className="facts limits__facts">
          {LIMIT_NAMES.map((name) => (
            <div className="facts__item" key={name} data-limit={name}>
              <dt>{t(LABELS[name])}</dt>
              <dd>
                {unit(name, values[name])}
                {server.limits?.[name] === undefined && <span className="muted"> {t('limits.isDefault')}</span>} · {proof(name)}
              </dd>
            </div>
          ))}
          <div className="facts__item" data-limit="home">
            <dt>{t('limits.home')}</dt>
            <dd>
              <span className="limits__proof limits__proof--warn">{t('limits.homeNotCapped')}</span>
            </dd>
          </div>
        </dl>
      )}
      {saved && (
        <p className="field-hint field-hint--success" role="status">
          {server.sandbox && server.enabled ? t('limits.savedRestart') : t('limits.savedLater')}
        </p>
      )}
      {!editing && <p className="field-hint">{t('limits.proofHelp')}</p>}
    </section>
  );
}

/** Why a typed value cannot be a limit, in the person's language, or undefined. */
function problemOf(text: string, name: ServerLimitName, t: ReturnType<typeof useI18n>['t']): string | undefined {
  const { min, max } = LIMIT_RANGES[name];
  if (text.trim() === '') return undefined;
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) return t('limits.outOfRange', { min, max });
  return undefined;
}

function LimitsForm({ server, onDone }: { server: ServerView; onDone(saved: boolean): void }) {
  const { t } = useI18n();
  const update = useCommand('servers.update');
  const formId = useId();
  const [texts, setTexts] = useState<Record<ServerLimitName, string>>(
    () => Object.fromEntries(LIMIT_NAMES.map((name) => [name, server.limits?.[name] === undefined ? '' : String(server.limits[name])])) as Record<ServerLimitName, string>,
  );
  const [tried, setTried] = useState(false);
  const problems = Object.fromEntries(LIMIT_NAMES.map((name) => [name, problemOf(texts[name], name, t)])) as Record<ServerLimitName, string | undefined>;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (LIMIT_NAMES.some((name) => problems[name])) return;
    // An empty field is the default: not stored, so a later change of the default reaches it.
    const limits: ServerLimits = Object.fromEntries(LIMIT_NAMES.flatMap((name) => (texts[name].trim() === '' ? [] : [[name, Number(texts[name].trim())]])));
    const result = await update.run({ serverId: server.id, patch: { limits } });
    if (result.ok) onDone(true);
  };
  return (
    <form id={formId} className="form limits__form" onSubmit={(event) => void submit(event)} noValidate>
      {LIMIT_NAMES.map((name) => {
        const { min, max, default: fallback } = LIMIT_RANGES[name];
        const id = `${formId}-${name}`;
        const problem = tried ? problems[name] : undefined;
        return (
          <BoundedNumberField
            key={name}
            id={id}
            label={`${t(LABELS[name])}${IN_MIB.has(name) ? ' (MiB)' : ''}`}
            value={texts[name]}
            min={min}
            max={max}
            fallback={fallback}
            problem={problem}
            onChange={(value) => setTexts((before) => ({ ...before, [name]: value }))}
          />
        );
      })}
      <p className="field-hint">{server.sandbox && server.enabled ? t('limits.restartNote') : t('limits.laterNote')}</p>
      <InlineError error={update.error} onDismiss={update.clearError} />
      <div className="limits__actions">
        <button type="button" className="button button--compact" onClick={() => onDone(false)}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button button--compact button--primary" disabled={update.pending}>
          {t('limits.save')}
        </button>
      </div>
    </form>
  );
}
