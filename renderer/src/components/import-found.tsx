// Import, step two: the files that were read (each with its own error), the servers found in them
// as a checklist, and the entries that could not become a server. Empty results teach where to look.
import { useEffect, useRef } from 'react';
import type { ImportPreviewView, ImportSourceView } from '../../../shared/import-types.js';
import { useI18n } from '../i18n/i18n-context.js';
import { ImportCandidateRow } from './import-candidate.js';
import type { ImportChoices } from './import-choices.js';
import { HOST_KINDS, HOST_LABELS, type HostKind } from './import-hosts.js';
import { InlineError } from './inline-error.js';

export function ImportFound({ preview, choices, onChange }: { preview: ImportPreviewView; choices: ImportChoices; onChange(choices: ImportChoices): void }) {
  const { t } = useI18n();
  const importable = preview.candidates.filter((candidate) => candidate.importable);
  const checkedCount = importable.filter((candidate) => choices.checked.has(candidate.key)).length;
  const allRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = checkedCount > 0 && checkedCount < importable.length;
  }, [checkedCount, importable.length]);

  const readable = preview.sources.filter((source) => !source.error);

  return (
    <>
      <section className="import-section" aria-labelledby="import-sources-title">
        <h3 id="import-sources-title" className="import-section__title" tabIndex={-1} data-step-focus>
          {t('import.sourcesTitle', { count: preview.sources.length })}
        </h3>
        {preview.sources.length === 0 ? (
          <NothingFound title={t('import.noFilesTitle')} body={t('import.noFilesBody')} />
        ) : (
          <ul className="import-sources">
            {preview.sources.map((source) => (
              <SourceItem key={source.path} source={source} />
            ))}
          </ul>
        )}
      </section>

      {preview.sources.length > 0 && (
        <section className="import-section" aria-labelledby="import-candidates-title">
          <div className="import-section__header">
            <h3 id="import-candidates-title" className="import-section__title">
              {t('import.candidatesTitle', { count: preview.candidates.length })}
            </h3>
            {importable.length > 1 && (
              <label className="checkbox-label import-section__all">
                <input
                  ref={allRef}
                  type="checkbox"
                  className="checkbox"
                  checked={checkedCount === importable.length}
                  onChange={(event) =>
                    onChange({ ...choices, checked: new Set(event.target.checked ? importable.map((candidate) => candidate.key) : []) })
                  }
                />
                {t('import.selectAll', { count: importable.length })}
              </label>
            )}
          </div>
          {preview.candidates.length === 0 ? (
            readable.length > 0 && <NothingFound title={t('import.noServersTitle')} body={t('import.noServersBody')} />
          ) : (
            <>
              <ul className="import-candidates" aria-labelledby="import-candidates-title">
                {preview.candidates.map((candidate) => (
                  <ImportCandidateRow key={candidate.key} candidate={candidate} preview={preview} choices={choices} onChange={onChange} />
                ))}
              </ul>
              <p className="field-hint">{t('import.grantsNothing')}</p>
              {importable.length > 0 && (
                <label className="checkbox-label import-start">
                  <input type="checkbox" className="checkbox" checked={choices.start} onChange={(event) => onChange({ ...choices, start: event.target.checked })} aria-describedby="import-start-hint" />
                  {t('import.startNow')}
                </label>
              )}
              {importable.length > 0 && (
                <p id="import-start-hint" className="field-hint">
                  {t('import.startHint')}
                </p>
              )}
            </>
          )}
        </section>
      )}

      {preview.skipped.length > 0 && (
        <section className="import-section" aria-labelledby="import-skipped-title">
          <h3 id="import-skipped-title" className="import-section__title">
            {t('import.skippedTitle', { count: preview.skipped.length })}
          </h3>
          <ul className="import-skipped">
            {preview.skipped.map((entry) => (
              <li key={`${entry.source}#${entry.name}`}>
                <strong>{entry.name}</strong> <span className="muted">— {entry.reason}</span>
                <span className="import-path mono">{entry.source}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

function SourceItem({ source }: { source: ImportSourceView }) {
  const { t } = useI18n();
  const scope = source.scope === 'user' ? t('import.scopeUser') : source.scope === 'workspace' ? t('import.scopeWorkspace') : t('import.scopePicked');
  return (
    <li className="import-source">
      <div className="import-source__line">
        <span className="import-source__host">{source.scope === 'pasted' ? t('import.pastedConfig') : HOST_LABELS[source.host]}</span>
        {source.scope !== 'pasted' && <span className="badge badge--neutral">{scope}</span>}
        <span className="import-path mono">{source.path}</span>
      </div>
      <InlineError error={source.error} />
    </li>
  );
}

/** Where each host keeps its servers: file names, the same in every language. */
const PLACES: Record<HostKind, string> = {
  'claude-desktop': 'Claude/claude_desktop_config.json',
  vscode: 'Code/User/mcp.json · <project>/.vscode/mcp.json',
  cursor: '~/.cursor/mcp.json · <project>/.cursor/mcp.json',
  'claude-code': '~/.claude.json · <project>/.mcp.json',
};

function NothingFound({ title, body }: { title: string; body: string }) {
  const { t } = useI18n();
  return (
    <div className="import-empty" role="status">
      <p className="import-empty__title">{title}</p>
      <p>{body}</p>
      <ul className="import-empty__places">
        {HOST_KINDS.map((host) => (
          <li key={host}>
            <strong>{HOST_LABELS[host]}</strong> <span className="mono">{PLACES[host]}</span>
          </li>
        ))}
      </ul>
      <p>{t('import.emptyNext')}</p>
    </div>
  );
}
