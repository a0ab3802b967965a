// Add or edit a server: stdio (command, args, env, cwd) or HTTP/SSE (url, headers). Each field's
// problem shows under it; a rejection by the host shows beside the Save button that caused it.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { ServerView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { Dialog } from './dialog.js';
import { InlineError } from './inline-error.js';
import { SecretPairsEditor } from './secret-pairs-editor.js';
import { formFromServer, formTransport, validateForm, type FormProblems, type ServerForm, type TransportKind } from './server-form-state.js';

export interface ServerFormDialogProps {
  open: boolean;
  /** Undefined to add a new server. */
  server: ServerView | undefined;
  onClose(): void;
  onSaved(serverId: string): void;
}

export function ServerFormDialog(props: ServerFormDialogProps) {
  // Remount per opening so the form starts from the server as it is now.
  if (!props.open) return null;
  return <ServerFormBody key={props.server?.id ?? 'new'} {...props} />;
}

function ServerFormBody({ server, onClose, onSaved }: ServerFormDialogProps) {
  const { t } = useI18n();
  const add = useCommand('servers.add');
  const update = useCommand('servers.update');
  const [form, setForm] = useState<ServerForm>(() => formFromServer(server));
  const [problems, setProblems] = useState<FormProblems>({});
  const formId = useId();
  const set = <K extends keyof ServerForm>(key: K, value: ServerForm[K]) => setForm((previous) => ({ ...previous, [key]: value }));
  const command = server ? update : add;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateForm(form);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const transport = formTransport(form);
    if (server) {
      const result = await update.run({ serverId: server.id, patch: { name: form.name.trim(), transport } });
      if (result.ok) onSaved(server.id);
    } else {
      const result = await add.run({ name: form.name.trim(), transport, enabled: form.enabled, sharing: form.sharing });
      if (result.ok) onSaved(result.value.id);
    }
  };

  const problem = (field: keyof FormProblems) => (problems[field] ? t(problems[field]) : undefined);

  return (
    <Dialog
      open
      size="large"
      title={server ? t('form.editTitle', { name: server.name }) : t('form.addTitle')}
      onClose={onClose}
      testId="server-form"
      footer={
        <>
          <InlineError error={command.error} onDismiss={command.clearError} />
          <span className="dialog__spacer" />
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form={formId} className="button button--primary" disabled={command.pending}>
            {server ? t('common.save') : t('form.addSubmit')}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={(event) => void submit(event)} noValidate>
        <Field label={t('form.name')} problem={problem('name')}>
          {(id, describedBy) => (
            <input id={id} className="input" value={form.name} onChange={(event) => set('name', event.target.value)} aria-describedby={describedBy} aria-invalid={problems.name ? true : undefined} autoComplete="off" data-autofocus />
          )}
        </Field>

        <fieldset className="segmented" aria-describedby={`${formId}-kind-help`}>
          <legend className="field-label">{t('form.transport')}</legend>
          {(['stdio', 'http', 'sse'] as TransportKind[]).map((kind) => (
            <label key={kind} className={`segmented__option${form.kind === kind ? ' segmented__option--checked' : ''}`}>
              <input type="radio" name={`${formId}-kind`} value={kind} checked={form.kind === kind} onChange={() => set('kind', kind)} />
              {t(kind === 'stdio' ? 'form.kindStdio' : kind === 'http' ? 'form.kindHttp' : 'form.kindSse')}
            </label>
          ))}
        </fieldset>
        <p id={`${formId}-kind-help`} className="field-hint">
          {form.kind === 'stdio' ? t('form.kindStdioHelp') : t('form.kindHttpHelp')}
        </p>

        {form.kind === 'stdio' ? (
          <>
            <Field label={t('form.command')} hint={t('form.commandHint')} problem={problem('command')}>
              {(id, describedBy) => (
                <input id={id} className="input input--mono" value={form.command} onChange={(event) => set('command', event.target.value)} aria-describedby={describedBy} aria-invalid={problems.command ? true : undefined} spellCheck={false} autoComplete="off" placeholder="npx" />
              )}
            </Field>
            <Field label={t('form.args')} hint={t('form.argsHint')}>
              {(id, describedBy) => (
                <textarea id={id} className="input input--mono" rows={3} value={form.args} onChange={(event) => set('args', event.target.value)} aria-describedby={describedBy} spellCheck={false} placeholder={'-y\n@modelcontextprotocol/server-filesystem'} />
              )}
            </Field>
            <Field label={t('form.cwd')} hint={t('form.cwdHint')}>
              {(id, describedBy) => (
                <input id={id} className="input input--mono" value={form.cwd} onChange={(event) => set('cwd', event.target.value)} aria-describedby={describedBy} spellCheck={false} autoComplete="off" />
              )}
            </Field>
            <SecretPairsEditor
              legend={t('form.env')}
              keyLabel={t('form.envKey')}
              addLabel={t('form.envAdd')}
              keyPlaceholder="API_KEY"
              pairs={form.env}
              onChange={(env) => set('env', env)}
              problem={problem('env')}
            />
          </>
        ) : (
          <>
            <Field label={t('form.url')} problem={problem('url')}>
              {(id, describedBy) => (
                <input id={id} className="input input--mono" type="url" value={form.url} onChange={(event) => set('url', event.target.value)} aria-describedby={describedBy} aria-invalid={problems.url ? true : undefined} spellCheck={false} autoComplete="off" placeholder="http://127.0.0.1:3001/mcp" />
              )}
            </Field>
            <SecretPairsEditor
              legend={t('form.headers')}
              keyLabel={t('form.headerKey')}
              addLabel={t('form.headerAdd')}
              keyPlaceholder="Authorization"
              pairs={form.headers}
              onChange={(headers) => set('headers', headers)}
              problem={problem('headers')}
            />
          </>
        )}

        {!server && (
          <div className="form__checks">
            <label className="checkbox-label">
              <input type="checkbox" className="checkbox" checked={form.enabled} onChange={(event) => set('enabled', event.target.checked)} />
              {t('form.enabledNow')}
            </label>
            <label className="checkbox-label">
              <input type="checkbox" className="checkbox" checked={form.sharing} onChange={(event) => set('sharing', event.target.checked)} />
              {t('form.sharingOn')}
            </label>
          </div>
        )}
        <p className="field-hint">{t('form.defaultDeny')}</p>
      </form>
    </Dialog>
  );
}

function Field({ label, hint, problem, children }: { label: string; hint?: string; problem?: string | undefined; children(id: string, describedBy: string | undefined): ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  const describedBy = [hint ? hintId : '', problem ? problemId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children(id, describedBy)}
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {problem && (
        <p id={problemId} className="field-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
