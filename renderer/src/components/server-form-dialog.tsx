// Add or edit a server: stdio (command, args, env, cwd) or HTTP/SSE (url, headers). Each field's
// problem shows under it; a rejection by the host shows beside the Save button that caused it.
import { useId, useState, type ClipboardEvent, type FormEvent, type ReactNode } from 'react';
import type { ServerView } from '../../../shared/domain.js';
import type { ImportPreviewView } from '../../../shared/import-types.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { Dialog } from './dialog.js';
import { InlineError } from './inline-error.js';
import { SecretPairsEditor } from './secret-pairs-editor.js';
import { looksLikeCommandLine, splitCommandLine, type SplitCommand } from './command-line.js';
import { formFromCandidate, formFromServer, formTransport, validateForm, withCommandLine, type FormProblems, type ServerForm, type TransportKind } from './server-form-state.js';

export interface ServerFormDialogProps {
  open: boolean;
  /** Undefined to add a new server. */
  server: ServerView | undefined;
  onClose(): void;
  onSaved(serverId: string): void;
  /** A pasted config holds servers the form cannot take as they are (several, or secrets): import them. */
  onSnippet(preview: ImportPreviewView): void;
  fallbackFocus?: () => HTMLElement | null | undefined;
}

/** A JSON config (or one entry of it) rather than a name, a command or a path. */
function looksLikeSnippet(text: string): boolean {
  const trimmed = text.trim();
  return /^[{"]/.test(trimmed) && /"(mcpServers|servers|command|url)"\s*:/.test(trimmed);
}

/** What the last split changed, so it can be shown and undone. */
interface SplitNotice {
  split: SplitCommand;
  before: ServerForm;
}

export function ServerFormDialog(props: ServerFormDialogProps) {
  // Remount per opening so the form starts from the server as it is now.
  if (!props.open) return null;
  return <ServerFormBody key={props.server?.id ?? 'new'} {...props} />;
}

function ServerFormBody({ server, onClose, onSaved, onSnippet, fallbackFocus }: ServerFormDialogProps) {
  const { t } = useI18n();
  const add = useCommand('servers.add');
  const update = useCommand('servers.update');
  const snippet = useCommand('import.snippet');
  const [form, setForm] = useState<ServerForm>(() => formFromServer(server));
  const [problems, setProblems] = useState<FormProblems>({});
  const [splitNotice, setSplitNotice] = useState<SplitNotice | undefined>();
  const [operators, setOperators] = useState<string[] | undefined>();
  const [filledFromSnippet, setFilledFromSnippet] = useState(false);
  const formId = useId();
  const commandId = `${formId}-command`;
  const set = <K extends keyof ServerForm>(key: K, value: ServerForm[K]) => setForm((previous) => ({ ...previous, [key]: value }));
  const command = server ? update : add;

  /** Splits a command line into the fields; says what it did, or why it could not. */
  const splitInto = (text: string) => {
    const result = splitCommandLine(text);
    if (!result.ok) {
      setOperators('operators' in result ? result.operators : undefined);
      return;
    }
    setOperators(undefined);
    setSplitNotice({ split: result.value, before: form });
    setForm(withCommandLine(form, result.value));
  };

  const readSnippet = async (text: string) => {
    setFilledFromSnippet(false);
    const result = await snippet.run({ text });
    if (!result.ok) return;
    const preview = result.value;
    const only = preview.candidates.length === 1 ? preview.candidates[0] : undefined;
    const filled = only && !server ? formFromCandidate(form, only) : undefined;
    if (filled) {
      setForm(filled);
      setSplitNotice(undefined);
      setFilledFromSnippet(true);
    } else if (preview.candidates.length > 0 && !server) {
      onSnippet(preview);
    }
  };

  // Pasting is how people bring a server they found elsewhere: a JSON config anywhere in the form,
  // or a whole command line into Command (only when it replaces the field: a paste into the middle
  // of a typed command is just text).
  const onPaste = (event: ClipboardEvent<HTMLFormElement>) => {
    const text = event.clipboardData.getData('text/plain');
    if (!server && looksLikeSnippet(text)) {
      event.preventDefault();
      void readSnippet(text);
      return;
    }
    const target = event.target as HTMLInputElement;
    if (target.id !== commandId) return;
    const replacesAll = target.value === '' || (target.selectionStart === 0 && target.selectionEnd === target.value.length);
    if (replacesAll && looksLikeCommandLine(text)) {
      event.preventDefault();
      splitInto(text);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateForm(form, server?.transport.type === 'stdio' ? server.transport.command : undefined);
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
      fallbackFocus={fallbackFocus}
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
      <form id={formId} className="form" onSubmit={(event) => void submit(event)} onPaste={onPaste} noValidate>
        {!server && <p className="field-hint form__paste-hint">{t('form.pasteHint')}</p>}
        <InlineError error={snippet.error} onDismiss={snippet.clearError} />
        {filledFromSnippet && (
          <p className="field-hint field-hint--success" role="status">
            {t('form.snippetFilled')}
          </p>
        )}
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
            <Field label={t('form.command')} hint={t('form.commandHint')} problem={problem('command')} id={commandId}>
              {(id, describedBy) => (
                <input
                  id={id}
                  className="input input--mono"
                  value={form.command}
                  onChange={(event) => {
                    set('command', event.target.value);
                    setSplitNotice(undefined);
                    setOperators(undefined);
                  }}
                  aria-describedby={describedBy}
                  aria-invalid={problems.command ? true : undefined}
                  spellCheck={false}
                  autoComplete="off"
                  placeholder="npx"
                />
              )}
            </Field>
            <CommandLineNotice
              command={form.command}
              notice={splitNotice}
              operators={operators}
              onSplit={() => splitInto(form.command)}
              onUndo={() => {
                if (splitNotice) setForm(splitNotice.before);
                setSplitNotice(undefined);
              }}
            />
            {/* No placeholder: grey words here read as the split already made while a pasted command
                line still waits for it (#30 item 11). The hint says what goes in. */}
            <Field label={t('form.args')} hint={t('form.argsHint')}>
              {(id, describedBy) => (
                <textarea id={id} className="input input--mono" rows={3} value={form.args} onChange={(event) => set('args', event.target.value)} aria-describedby={describedBy} spellCheck={false} />
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
        {/* Said where a server is added; an edited one keeps its grants (#30 item 11). */}
        {!server && <p className="field-hint">{t('form.defaultDeny')}</p>}
      </form>
    </Dialog>
  );
}

/** After a split: what went where, with Undo. Before one: an offer, when the field holds more than a program. */
function CommandLineNotice({
  command,
  notice,
  operators,
  onSplit,
  onUndo,
}: {
  command: string;
  notice: SplitNotice | undefined;
  operators: string[] | undefined;
  onSplit(): void;
  onUndo(): void;
}) {
  const { t } = useI18n();
  if (operators) {
    return (
      <p className="field-error" role="alert">
        {t('form.splitOperators', { operators: operators.join(' ') })}
      </p>
    );
  }
  if (notice) {
    const { split } = notice;
    return (
      <div className="split-notice" role="status">
        <p>
          {t('form.splitDone', { count: split.args.length, command: split.command })}
          {split.env.length > 0 && <> {t('form.splitEnv', { count: split.env.length, names: split.env.map(([name]) => name).join(', ') })}</>}
        </p>
        <SplitWords split={split} />
        <button type="button" className="button button--compact button--ghost" onClick={onUndo}>
          {t('form.splitUndo')}
        </button>
      </div>
    );
  }
  if (!looksLikeCommandLine(command)) return null;
  // The split it would make, shown before it is made: what becomes the program, what its arguments.
  const preview = splitCommandLine(command);
  return (
    <div className="split-notice" role="status">
      <p>{t('form.splitOffer')}</p>
      {preview.ok && <SplitWords split={preview.value} />}
      <button type="button" className="button button--compact" onClick={onSplit}>
        {t('form.splitButton')}
      </button>
    </div>
  );
}

/** The program first, then each argument: one word per box, as the server will get them. */
function SplitWords({ split }: { split: SplitCommand }) {
  const { t } = useI18n();
  return (
    <ol className="split-notice__words" aria-label={t('form.splitWords')}>
      {split.env.map(([name, value]) => (
        <li key={`env-${name}`} className="split-notice__env mono">
          {name}={value}
        </li>
      ))}
      <li className="split-notice__command mono">{split.command}</li>
      {split.args.map((arg, index) => (
        <li key={index} className="mono">
          {arg}
        </li>
      ))}
    </ol>
  );
}

function Field({
  label,
  hint,
  problem,
  id: fixedId,
  children,
}: {
  label: string;
  hint?: string;
  problem?: string | undefined;
  id?: string;
  children(id: string, describedBy: string | undefined): ReactNode;
}) {
  const generatedId = useId();
  const id = fixedId ?? generatedId;
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
