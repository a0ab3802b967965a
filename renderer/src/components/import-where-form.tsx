// Import, step one: which hosts' usual config places to read, which project folders, which file.
// Paths are typed (a browser has no file picker that reveals paths); the desktop app can pick folders.
import { useId, useState, type FormEvent } from 'react';
import type { HostError } from '../../../shared/result.js';
import { desktopExtras } from '../desktop-extras.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { ImportWhere, WhereProblems } from './import-choices.js';
import { guessHost, HOST_KINDS, HOST_LABELS, type HostKind } from './import-hosts.js';
import { InlineError } from './inline-error.js';

export interface ImportWhereFormProps {
  formId: string;
  where: ImportWhere;
  problems: WhereProblems;
  onChange(where: ImportWhere): void;
  onSubmit(event: FormEvent): void;
}

export function ImportWhereForm({ formId, where, problems, onChange, onSubmit }: ImportWhereFormProps) {
  const { t } = useI18n();
  const id = useId();
  const desktop = desktopExtras();
  const [pickError, setPickError] = useState<HostError | undefined>();
  // Once the person picks the file's host, typing the path no longer re-guesses it.
  const [hostPicked, setHostPicked] = useState(false);
  const set = (patch: Partial<ImportWhere>) => onChange({ ...where, ...patch });
  const ids = {
    hostsHint: `${id}-hosts-hint`,
    hostsProblem: `${id}-hosts-problem`,
    workspaces: `${id}-workspaces`,
    workspacesHint: `${id}-workspaces-hint`,
    workspacesProblem: `${id}-workspaces-problem`,
    file: `${id}-file`,
    fileHint: `${id}-file-hint`,
    fileProblem: `${id}-file-problem`,
    fileHost: `${id}-file-host`,
    fileHostProblem: `${id}-file-host-problem`,
  };
  const describedBy = (...parts: (string | false)[]) => parts.filter(Boolean).join(' ') || undefined;

  const toggleHost = (host: HostKind, on: boolean) =>
    set({ hosts: HOST_KINDS.filter((kind) => (kind === host ? on : where.hosts.includes(kind))) });

  const pickWorkspaces = async () => {
    try {
      const picked = (await desktop.pickFolders?.()) ?? [];
      setPickError(undefined);
      if (picked.length > 0) set({ workspaces: [where.workspaces.trim(), ...picked].filter(Boolean).join('\n') });
    } catch (error) {
      setPickError({ code: 'internal', message: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <form id={formId} className="form" onSubmit={onSubmit} noValidate>
      <p className="import__intro">{t('import.intro')}</p>
      <fieldset className="import-hosts" aria-describedby={describedBy(ids.hostsHint, !!problems.hosts && ids.hostsProblem)}>
        <legend className="field-label">{t('import.hostsLegend')}</legend>
        <div className="import-hosts__options">
          {HOST_KINDS.map((host, index) => (
            <label key={host} className="checkbox-label import-hosts__option">
              <input
                type="checkbox"
                className="checkbox"
                checked={where.hosts.includes(host)}
                onChange={(event) => toggleHost(host, event.target.checked)}
                data-autofocus={index === 0 ? true : undefined}
              />
              {HOST_LABELS[host]}
            </label>
          ))}
        </div>
        <p id={ids.hostsHint} className="field-hint">
          {t('import.hostsHint')}
        </p>
        {problems.hosts && (
          <p id={ids.hostsProblem} className="field-error" role="alert">
            {t(problems.hosts)}
          </p>
        )}
      </fieldset>

      <div className="field">
        <label htmlFor={ids.workspaces} className="field-label">
          {t('import.workspaces')}
        </label>
        <div className="import-where__row">
          <textarea
            id={ids.workspaces}
            className="input input--mono"
            rows={2}
            value={where.workspaces}
            onChange={(event) => set({ workspaces: event.target.value })}
            aria-describedby={describedBy(ids.workspacesHint, !!problems.workspaces && ids.workspacesProblem)}
            aria-invalid={problems.workspaces ? true : undefined}
            spellCheck={false}
            placeholder={t('import.workspacesPlaceholder')}
          />
          {desktop.pickFolders && (
            <button type="button" className="button" onClick={() => void pickWorkspaces()}>
              {t('import.chooseFolders')}
            </button>
          )}
        </div>
        <p id={ids.workspacesHint} className="field-hint">
          {t('import.workspacesHint')}
        </p>
        {problems.workspaces && (
          <p id={ids.workspacesProblem} className="field-error" role="alert">
            {t(problems.workspaces)}
          </p>
        )}
        <InlineError error={pickError} onDismiss={() => setPickError(undefined)} />
      </div>

      <div className="import-where__file">
        <div className="field">
          <label htmlFor={ids.file} className="field-label">
            {t('import.file')}
          </label>
          <input
            id={ids.file}
            className="input input--mono"
            value={where.file}
            onChange={(event) => {
              const file = event.target.value;
              const guessed = hostPicked ? undefined : guessHost(file);
              set({ file, ...(guessed ? { fileHost: guessed } : {}) });
            }}
            aria-describedby={describedBy(ids.fileHint, !!problems.file && ids.fileProblem)}
            aria-invalid={problems.file ? true : undefined}
            spellCheck={false}
            autoComplete="off"
            placeholder={t('import.filePlaceholder')}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.fileHost} className="field-label">
            {t('import.fileHost')}
          </label>
          <select
            id={ids.fileHost}
            className="select"
            value={where.fileHost}
            onChange={(event) => {
              setHostPicked(true);
              set({ fileHost: event.target.value as HostKind | '' });
            }}
            aria-describedby={problems.fileHost ? ids.fileHostProblem : undefined}
            aria-invalid={problems.fileHost ? true : undefined}
          >
            <option value="">{t('import.fileHostChoose')}</option>
            {HOST_KINDS.map((host) => (
              <option key={host} value={host}>
                {HOST_LABELS[host]}
              </option>
            ))}
          </select>
        </div>
        <p id={ids.fileHint} className="field-hint import-where__file-hint">
          {t('import.fileHint')}
        </p>
        {problems.file && (
          <p id={ids.fileProblem} className="field-error import-where__file-hint" role="alert">
            {t(problems.file)}
          </p>
        )}
        {problems.fileHost && (
          <p id={ids.fileHostProblem} className="field-error import-where__file-hint" role="alert">
            {t(problems.fileHost)}
          </p>
        )}
      </div>
    </form>
  );
}
