// One server found in another host's config: tick it, name it, fill in its variables. Variables are
// shown exactly as written; one that stays empty is imported as written and the server starts off.
// A candidate that cannot be taken stays visible, unticked, with the reason.
import { useId } from 'react';
import { PASTED_SOURCE, type ImportCandidateView, type ImportPreviewView } from '../../../shared/import-types.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useServers } from '../use-host-state.js';
import { nameProblem, variableFields, type ImportChoices, type VariableField } from './import-choices.js';
import { HOST_LABELS } from './import-hosts.js';
import { SecretKeys } from './secret-keys.js';
import { transportFull } from './transport-summary.js';

export interface ImportCandidateRowProps {
  candidate: ImportCandidateView;
  preview: ImportPreviewView;
  choices: ImportChoices;
  onChange(choices: ImportChoices): void;
}

export function ImportCandidateRow({ candidate, preview, choices, onChange }: ImportCandidateRowProps) {
  const { t } = useI18n();
  const id = useId();
  const checked = candidate.importable && choices.checked.has(candidate.key);
  const problem = nameProblem(preview, choices, candidate.key);
  const fields = variableFields(candidate);
  const unfilled = fields.filter((field) => (choices.values[field.variable] ?? '') === '');
  // A pasted snippet is read with a host's rules, but it came from the clipboard, not that host.
  const host = candidate.source === PASTED_SOURCE ? t('import.pastedConfig') : HOST_LABELS[candidate.host];

  const setChecked = (on: boolean) => {
    const next = new Set(choices.checked);
    if (on) next.add(candidate.key);
    else next.delete(candidate.key);
    onChange({ ...choices, checked: next });
  };

  return (
    <li className={`import-candidate${candidate.importable ? '' : ' import-candidate--blocked'}`}>
      <div className="import-candidate__top">
        <input
          id={`${id}-check`}
          type="checkbox"
          className="checkbox"
          checked={checked}
          disabled={!candidate.importable}
          onChange={(event) => setChecked(event.target.checked)}
          aria-label={t('import.chooseCandidate', { name: candidate.originalName, host })}
          aria-describedby={candidate.importable ? undefined : `${id}-reason`}
        />
        <label htmlFor={`${id}-check`} className="import-candidate__name">
          {candidate.originalName}
        </label>
        <span className="badge badge--neutral">{host}</span>
        <span className="badge badge--neutral">{candidate.transport.type === 'stdio' ? t('form.kindStdio') : candidate.transport.type.toUpperCase()}</span>
        {candidate.disabledInHost && <span className="badge badge--warning">{t('import.offInHost', { host })}</span>}
      </div>

      <div className="import-candidate__details">
        {/* In full: a shortened line hid what a server is given (a postgresql:// URL, a folder). */}
        <p className="import-candidate__transport mono">{transportFull(candidate.transport)}</p>
        <SecretKeys transport={candidate.transport} />
        <p className="import-path mono">
          {candidate.source}
          {candidate.project && ` · ${t('import.project', { project: candidate.project })}`}
        </p>

        {!candidate.importable && <BlockedReason id={`${id}-reason`} candidate={candidate} preview={preview} />}

        {candidate.importable && (
          <div className="field import-candidate__rename">
            <label htmlFor={`${id}-name`} className="field-label">
              {t('import.nameLabel')}
            </label>
            <input
              id={`${id}-name`}
              className="input input--compact"
              value={choices.names[candidate.key] ?? ''}
              onChange={(event) => onChange({ ...choices, names: { ...choices.names, [candidate.key]: event.target.value } })}
              disabled={!checked}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-name-problem` : undefined}
              autoComplete="off"
              spellCheck={false}
            />
            {problem && (
              <p id={`${id}-name-problem`} className="field-error" role="alert">
                {t(problem)}
              </p>
            )}
          </div>
        )}

        {fields.length > 0 && (
          <fieldset className="import-variables">
            <legend className="field-label">{t('import.variables', { count: fields.length })}</legend>
            {fields.map((field) => (
              <VariableInput
                key={field.variable}
                field={field}
                editable={checked}
                value={choices.values[field.variable] ?? ''}
                onChange={(value) => onChange({ ...choices, values: { ...choices.values, [field.variable]: value } })}
              />
            ))}
            {checked && unfilled.length > 0 && <p className="field-hint field-hint--warning">{t('import.unfilledHint')}</p>}
          </fieldset>
        )}

        {candidate.notes.length > 0 && (
          <ul className="import-notes" aria-label={t('import.notes')}>
            {candidate.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}

function VariableInput({ field, editable, value, onChange }: { field: VariableField; editable: boolean; value: string; onChange(value: string): void }) {
  const { t } = useI18n();
  const id = useId();
  const hint =
    field.kind === 'input'
      ? field.description
      : field.kind === 'env'
        ? t('import.variableEnv', { name: field.id })
        : t('import.variableOther');
  return (
    <div className="import-variable">
      <code className="import-variable__name" id={`${id}-name`}>
        {field.variable}
      </code>
      {editable && (
        <input
          id={id}
          className="input input--compact input--mono"
          type={field.password ? 'password' : 'text'}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-label={t('import.valueFor', { variable: field.variable })}
          aria-describedby={hint ? `${id}-hint` : undefined}
          placeholder={field.password ? t('import.secretPlaceholder') : t('import.valuePlaceholder')}
          autoComplete="off"
          spellCheck={false}
        />
      )}
      {hint && (
        <span id={`${id}-hint`} className="import-variable__hint">
          {hint}
        </span>
      )}
    </div>
  );
}

function BlockedReason({ id, candidate, preview }: { id: string; candidate: ImportCandidateView; preview: ImportPreviewView }) {
  const { t } = useI18n();
  const servers = useServers();
  let reason: string;
  if (candidate.proxiedServer !== undefined) {
    reason = t('import.reasonProxied', { name: candidate.proxiedServer });
  } else if (candidate.duplicateOf !== undefined) {
    const existing = servers.find((server) => server.id === candidate.duplicateOf);
    reason = t('import.reasonDuplicate', { name: existing?.name ?? candidate.duplicateOf });
  } else {
    const first = preview.candidates.find((other) => other.key === candidate.sameAs);
    reason = first ? t('import.reasonSameAs', { name: first.originalName, host: HOST_LABELS[first.host] }) : t('import.reasonRepeat');
  }
  return (
    <p id={id} className="import-candidate__reason">
      <span className={`badge ${candidate.proxiedServer !== undefined ? 'badge--success' : 'badge--info'}`}>
        {candidate.proxiedServer !== undefined ? t('import.badgeProxied') : candidate.duplicateOf !== undefined ? t('import.badgeDuplicate') : t('import.badgeSameAs')}
      </span>{' '}
      {reason}
    </p>
  );
}
