// Adds folders: typed or pasted paths everywhere, the native picker and drag & drop in Electron.
// Each path that fails is listed with its reason under the field.
import { useId, useState, type DragEvent, type FormEvent } from 'react';
import type { AddRootsResult } from '../../../shared/contract.js';
import type { HostError } from '../../../shared/result.js';
import { desktopExtras } from '../desktop-extras.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { FolderBrowser } from './folder-browser.js';
import { FolderIcon, PlusIcon } from './icons.js';
import { errorWords } from './error-words.js';
import { ErrorText, InlineError } from './inline-error.js';

export function AddRootForm() {
  const { t, errorTitle, locale } = useI18n();
  const add = useCommand('roots.add');
  const [path, setPath] = useState('');
  const [outcome, setOutcome] = useState<AddRootsResult | undefined>();
  const [dropHint, setDropHint] = useState<string | undefined>();
  const [dragging, setDragging] = useState(false);
  const [pickError, setPickError] = useState<HostError | undefined>();
  // The browser shell's own folder picker (the desktop app opens the OS dialog instead).
  const [browsing, setBrowsing] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const desktop = desktopExtras();

  /** `typed`: the field's text these paths came from; it is cleared once they are all added. */
  const addPaths = async (paths: string[], typed?: string) => {
    // Never trimmed: `proj ` is not `proj` (which may lead elsewhere); the host explains a near miss.
    const cleaned = paths.filter((value) => value.trim() !== '');
    if (cleaned.length === 0) return;
    setDropHint(undefined);
    const result = await add.run({ paths: cleaned });
    if (!result.ok) return;
    setOutcome(result.value);
    // Only if it still holds what was sent: text typed while the host worked is not thrown away.
    if (typed !== undefined && result.value.failed.length === 0) setPath((current) => (current === typed ? '' : current));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Several paths pasted at once, one per line: each is a folder.
    void addPaths(path.split(/\r?\n/), path);
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
            {/* A text area so several pasted paths keep their lines; Enter adds, Shift+Enter starts a new line. */}
            <textarea
              id={inputId}
              className="input input--mono add-root__input"
              value={path}
              rows={Math.min(6, Math.max(1, path.split(/\r?\n/).length))}
              onChange={(event) => {
                setPath(event.target.value);
                add.clearError();
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  event.currentTarget.form?.requestSubmit();
                }
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
          {desktop.pickFolders ? (
            <button type="button" className="button" onClick={() => void pick()} disabled={add.pending}>
              {t('roots.browse')}
            </button>
          ) : (
            <button type="button" className="button" onClick={() => setBrowsing(true)} disabled={add.pending} aria-haspopup="dialog">
              {t('roots.browseBrowser')}
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
      <FolderBrowser
        open={browsing}
        onClose={() => setBrowsing(false)}
        onPick={(paths) => {
          setBrowsing(false);
          void addPaths(paths);
        }}
      />
      {outcome && outcome.failed.length > 0 && (
        <ul className="add-root__failures" aria-label={t('roots.failedList')}>
          {outcome.failed.map((failure) => (
            // The alert is inside the item: a list may hold only items (axe: list).
            <li key={failure.input} className="inline-error">
              <span className="inline-error__text" role="alert">
                <code>{failure.input}</code> — <ErrorText words={errorWords(locale, errorTitle, failure)} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
