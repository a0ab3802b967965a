// Adds folders: typed or pasted paths everywhere, the native picker and drag & drop in Electron.
// Each path that fails is listed with its reason under the field.
import { useId, useState, type DragEvent, type FormEvent } from 'react';
import type { AddRootsResult } from '../../../shared/contract.js';
import type { HostError } from '../../../shared/result.js';
import { desktopExtras } from '../desktop-extras.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { FolderIcon, PlusIcon } from './icons.js';
import { InlineError } from './inline-error.js';

export function AddRootForm() {
  const { t, errorTitle } = useI18n();
  const add = useCommand('roots.add');
  const [path, setPath] = useState('');
  const [outcome, setOutcome] = useState<AddRootsResult | undefined>();
  const [dropHint, setDropHint] = useState<string | undefined>();
  const [dragging, setDragging] = useState(false);
  const [pickError, setPickError] = useState<HostError | undefined>();
  const inputId = useId();
  const hintId = useId();
  const desktop = desktopExtras();

  const addPaths = async (paths: string[]) => {
    // Never trimmed: `proj ` is not `proj` (which may lead elsewhere); the host explains a near miss.
    const cleaned = paths.filter((value) => value.trim() !== '');
    if (cleaned.length === 0) return;
    setDropHint(undefined);
    const result = await add.run({ paths: cleaned });
    if (!result.ok) return;
    setOutcome(result.value);
    if (result.value.failed.length === 0) setPath('');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Several paths pasted at once arrive newline-separated in some shells; accept them all.
    void addPaths(path.split(/\r?\n/));
  };

  const pick = async () => {
    let picked: string[];
    try {
      picked = (await desktop.pickFolders?.()) ?? [];
    } catch (error) {
      // The native dialog failed: say so here rather than losing it in the console.
      setPickError({ code: 'internal', message: error instanceof Error ? error.message : String(error) });
      return;
    }
    setPickError(undefined);
    if (picked.length > 0) void addPaths(picked);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const files = [...event.dataTransfer.files];
    if (files.length === 0) return;
    if (!desktop.pathsForFiles) {
      // A browser never reveals where a dropped folder lives on disk.
      setDropHint(t('roots.dropBrowser'));
      return;
    }
    void addPaths(desktop.pathsForFiles(files));
  };

  return (
    <div
      className={`add-root${dragging ? ' add-root--dragging' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <form className="add-root__form" onSubmit={submit}>
        <label htmlFor={inputId} className="field-label">
          {t('roots.pathLabel')}
        </label>
        <div className="add-root__row">
          <div className="input-with-icon">
            <FolderIcon className="input-with-icon__icon" />
            <input
              id={inputId}
              className="input input--mono"
              value={path}
              onChange={(event) => {
                setPath(event.target.value);
                add.clearError();
              }}
              placeholder={t('roots.pathPlaceholder')}
              spellCheck={false}
              autoComplete="off"
              aria-describedby={hintId}
            />
          </div>
          <button type="submit" className="button button--primary" disabled={add.pending || path.trim() === ''}>
            <PlusIcon /> {t('roots.add')}
          </button>
          {desktop.pickFolders && (
            <button type="button" className="button" onClick={() => void pick()} disabled={add.pending}>
              {t('roots.browse')}
            </button>
          )}
        </div>
        <p id={hintId} className="field-hint">
          {desktop.pathsForFiles ? t('roots.hintDesktop') : t('roots.hintBrowser')}
        </p>
      </form>
      <InlineError error={add.error} onDismiss={add.clearError} />
      <InlineError error={pickError} onDismiss={() => setPickError(undefined)} />
      {dropHint && (
        <p className="field-hint field-hint--warning" role="status">
          {dropHint}
        </p>
      )}
      <div role="status" className="add-root__outcome">
        {outcome && outcome.added.length > 0 && (
          <p className="field-hint field-hint--success">{t('roots.added', { count: outcome.added.length })}</p>
        )}
      </div>
      {outcome && outcome.failed.length > 0 && (
        <ul className="add-root__failures" aria-label={t('roots.failedList')}>
          {outcome.failed.map((failure) => (
            <li key={failure.input} className="inline-error" role="alert">
              <span className="inline-error__text">
                <code>{failure.input}</code> — <strong>{errorTitle(failure.code)}</strong> {failure.message}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
