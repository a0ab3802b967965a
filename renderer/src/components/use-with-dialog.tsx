// "Use with…": point Claude Desktop, Cursor, VS Code or Claude Code at `mcp-roots proxy` for chosen
// servers, so that host reaches them through this app (and its folder consent). Preview first, then
// write: the host side backs up the original file before changing it.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { UseWithApplyResult, UseWithPreview } from '../../../shared/import-types.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { useServers } from '../use-host-state.js';
import { Dialog } from './dialog.js';
import { HOST_KINDS, HOST_LABELS, hasWorkspaceConfig, type HostKind } from './import-hosts.js';
import { InlineError } from './inline-error.js';
import { transportSummary } from './transport-summary.js';
import { takesProject, useWithInput, type UseWithForm, type UseWithProblems, type UseWithTarget } from './use-with-choices.js';
import { clashUndecided, nothingToWrite, UseWithPlan, UseWithWritten } from './use-with-plan.js';

export interface UseWithDialogProps {
  open: boolean;
  /** Preselected. */
  serverId: string | undefined;
  onClose(): void;
}

export function UseWithDialog(props: UseWithDialogProps) {
  if (!props.open) return null;
  return <UseWithBody {...props} />;
}

function UseWithBody({ serverId, onClose }: UseWithDialogProps) {
  const { t } = useI18n();
  const servers = useServers();
  const preview = useCommand('useWith.preview');
  const apply = useCommand('useWith.apply');
  const [form, setForm] = useState<UseWithForm>({
    host: 'claude-desktop',
    serverIds: serverId ? [serverId] : [],
    target: 'user',
    workspace: '',
    file: '',
    project: '',
    launcher: 'node',
  });
  const [problems, setProblems] = useState<UseWithProblems>({});
  const [plan, setPlan] = useState<UseWithPreview | undefined>();
  const [written, setWritten] = useState<UseWithApplyResult | undefined>();
  const formId = useId();
  const id = useId();
  const outcomeRef = useRef<HTMLDivElement>(null);
  const preselectedRef = useRef<HTMLLIElement>(null);

  // The preselected server may sit below the list's fold: show it is ticked. A block body: an
  // effect must return nothing or a cleanup, and scrollIntoView() returns a Promise in Chromium.
  useEffect(() => {
    preselectedRef.current?.scrollIntoView({ block: 'nearest' });
  }, []);

  // The new section's heading takes focus when a preview or a result appears.
  useEffect(() => {
    if (plan || written) outcomeRef.current?.querySelector<HTMLElement>('[data-step-focus]')?.focus();
  }, [plan, written]);

  const change = (patch: Partial<UseWithForm>) => {
    setForm((previous) => {
      const next = { ...previous, ...patch };
      // Claude Desktop has no project config: fall back to the user one.
      if (next.target === 'workspace' && !hasWorkspaceConfig(next.host)) next.target = 'user';
      return next;
    });
    // Any change makes the preview stale: it must be shown again before writing.
    setPlan(undefined);
    setWritten(undefined);
    setProblems({});
    preview.clearError();
    apply.clearError();
  };

  const previewOf = async (chosen: UseWithForm) => {
    const { input, problems: found } = useWithInput(chosen);
    setProblems(found);
    if (!input) return;
    const result = await preview.run(input);
    if (result.ok) setPlan(result.value);
  };

  const runPreview = async (event: FormEvent) => {
    event.preventDefault();
    await previewOf(form);
  };

  // A clash answered: the preview (and its diff) is shown again with that choice in it.
  const chooseClash = (clashServerId: string, choice: 'replace' | 'add') => {
    const next = { ...form, clashes: { ...form.clashes, [clashServerId]: choice } };
    setForm(next);
    apply.clearError();
    void previewOf(next);
  };

  const write = async () => {
    const { input } = useWithInput(form);
    if (!input || !plan) return;
    const result = await apply.run(input);
    if (result.ok) {
      setWritten(result.value);
      setPlan(undefined);
    }
  };

  const toggleServer = (serverIdToToggle: string, on: boolean) =>
    change({ serverIds: servers.filter((server) => (server.id === serverIdToToggle ? on : form.serverIds.includes(server.id))).map((server) => server.id) });

  const host = HOST_LABELS[form.host];
  const targets: UseWithTarget[] = hasWorkspaceConfig(form.host) ? ['user', 'workspace', 'file'] : ['user', 'file'];
  const problemId = (field: keyof UseWithProblems) => (problems[field] ? `${id}-${field}-problem` : undefined);

  const footer = written ? (
    <>
      <span className="dialog__spacer" />
      <button type="button" className="button button--primary" onClick={onClose}>
        {t('useWith.done')}
      </button>
    </>
  ) : (
    <>
      <InlineError error={preview.error ?? apply.error} onDismiss={() => (preview.error ? preview.clearError() : apply.clearError())} />
      <span className="dialog__spacer" />
      <button type="button" className="button" onClick={onClose}>
        {t('common.cancel')}
      </button>
      <button type="submit" form={formId} className={`button${plan ? '' : ' button--primary'}`} disabled={preview.pending}>
        {plan ? t('useWith.previewAgain') : t('useWith.previewButton')}
      </button>
      {plan && !nothingToWrite(plan) && (
        <button type="button" className="button button--primary" onClick={() => void write()} disabled={apply.pending || preview.pending || clashUndecided(plan)}>
          {t('useWith.write')}
        </button>
      )}
    </>
  );

  return (
    <Dialog open size="large" title={t('useWith.title')} description={t('useWith.intro')} onClose={onClose} testId="use-with-dialog" footer={footer}>
      {/* Once written, only the outcome is left: the choices that led to it are in it. */}
      {!written && (
        <form id={formId} className="form" onSubmit={(event) => void runPreview(event)} noValidate>
          <fieldset className="segmented">
            <legend className="field-label">{t('useWith.host')}</legend>
            {HOST_KINDS.map((kind: HostKind) => (
              <label key={kind} className={`segmented__option${form.host === kind ? ' segmented__option--checked' : ''}`}>
                <input type="radio" name={`${id}-host`} value={kind} checked={form.host === kind} onChange={() => change({ host: kind })} data-autofocus={form.host === kind ? true : undefined} />
                {HOST_LABELS[kind]}
              </label>
            ))}
          </fieldset>

          <fieldset className="use-with-servers" aria-describedby={problemId('servers')}>
            <legend className="field-label">{t('useWith.servers')}</legend>
            <ul className="choice-list">
              {servers.map((server) => (
                <li key={server.id} ref={server.id === serverId ? preselectedRef : undefined}>
                  <label className="choice-list__item">
                    <input type="checkbox" className="checkbox" checked={form.serverIds.includes(server.id)} onChange={(event) => toggleServer(server.id, event.target.checked)} />
                    <span className="choice-list__text">
                      <span className="choice-list__name">{server.name}</span>
                      <span className="choice-list__path mono">{transportSummary(server.transport)}</span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
            {problems.servers && (
              <p id={problemId('servers')} className="field-error" role="alert">
                {t(problems.servers)}
              </p>
            )}
          </fieldset>

          <fieldset className="use-with-target">
            <legend className="field-label">{t('useWith.target')}</legend>
            {targets.map((target) => (
              <label key={target} className="checkbox-label">
                <input type="radio" className="checkbox" name={`${id}-target`} value={target} checked={form.target === target} onChange={() => change({ target })} />
                {target === 'user' ? t('useWith.targetUser', { host }) : target === 'workspace' ? t('useWith.targetWorkspace') : t('useWith.targetFile')}
              </label>
            ))}
            {form.target === 'workspace' && (
              <PathField
                id={`${id}-workspace`}
                label={t('useWith.workspace')}
                hint={t('useWith.workspaceHint', { file: WORKSPACE_FILES[form.host] })}
                value={form.workspace}
                problem={problems.workspace && t(problems.workspace)}
                onChange={(workspace) => change({ workspace })}
              />
            )}
            {form.target === 'file' && (
              <PathField
                id={`${id}-file`}
                label={t('useWith.file')}
                hint={t('useWith.fileHint', { host })}
                value={form.file}
                problem={problems.file && t(problems.file)}
                onChange={(file) => change({ file })}
              />
            )}
            {takesProject(form) && (
              <PathField
                id={`${id}-project`}
                label={t('useWith.project')}
                hint={t('useWith.projectHint')}
                value={form.project}
                problem={problems.project && t(problems.project)}
                onChange={(project) => change({ project })}
              />
            )}
          </fieldset>

          <fieldset className="use-with-launcher">
            <legend className="field-label">{t('useWith.launcher')}</legend>
            {(['node', 'path'] as const).map((launcher) => (
              <label key={launcher} className="use-with-launcher__option">
                <input type="radio" className="checkbox" name={`${id}-launcher`} value={launcher} checked={form.launcher === launcher} onChange={() => change({ launcher })} aria-describedby={`${id}-launcher-${launcher}`} />
                <span>
                  <span className="use-with-launcher__title">{launcher === 'node' ? t('useWith.launcherNode') : t('useWith.launcherPath')}</span>
                  <span id={`${id}-launcher-${launcher}`} className="field-hint">
                    {launcher === 'node' ? t('useWith.launcherNodeHint') : t('useWith.launcherPathHint')}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
        </form>
      )}

      <div ref={outcomeRef} className={plan ? 'use-with-outcome' : undefined}>
        {plan && <UseWithPlan plan={plan} host={host} chosen={form.clashes} onClash={chooseClash} />}
        {written && <UseWithWritten result={written} host={host} />}
      </div>
    </Dialog>
  );
}

/** Where each host keeps a project's servers, for the hint. */
const WORKSPACE_FILES: Record<HostKind, string> = {
  'claude-desktop': '',
  vscode: '.vscode/mcp.json',
  cursor: '.cursor/mcp.json',
  'claude-code': '.mcp.json',
};

function PathField({ id, label, hint, value, problem, onChange }: { id: string; label: string; hint: string; value: string; problem: string | undefined; onChange(value: string): void }) {
  return (
    <div className="field use-with-target__field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input
        id={id}
        className="input input--mono"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={[`${id}-hint`, problem ? `${id}-problem` : ''].filter(Boolean).join(' ')}
        aria-invalid={problem ? true : undefined}
        spellCheck={false}
        autoComplete="off"
      />
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
      {problem && (
        <p id={`${id}-problem`} className="field-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
