// Import servers from other hosts' configs, in three steps in one dialog: where to look, what was
// found (a checklist with names, variables and why some cannot be taken), and what was added.
// Nothing is written until "Import"; an import never shares a folder.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ImportApplyResult, ImportPreviewView } from '../../../shared/import-types.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { Dialog } from './dialog.js';
import { ImportFound } from './import-found.js';
import { applyInput, hasNameProblems, initialChoices, previewInput, type ImportChoices, type ImportWhere, type WhereProblems } from './import-choices.js';
import { HOST_KINDS } from './import-hosts.js';
import { ImportOutcome } from './import-outcome.js';
import { ImportWhereForm } from './import-where-form.js';
import { InlineError } from './inline-error.js';

export interface ImportDialogProps {
  open: boolean;
  /** A preview already made (a pasted config): the dialog opens on its choices. */
  initial?: ImportPreviewView | undefined;
  onClose(): void;
  /** The first server added, to show it. */
  onImported(serverId: string): void;
}

export function ImportDialog(props: ImportDialogProps) {
  // Remount per opening: every import starts from "where to look".
  if (!props.open) return null;
  return <ImportBody {...props} />;
}

type Step = 'where' | 'choose' | 'done';

function ImportBody({ initial, onClose, onImported }: ImportDialogProps) {
  const { t } = useI18n();
  const preview = useCommand('import.preview');
  const apply = useCommand('import.apply');
  const [step, setStep] = useState<Step>(initial ? 'choose' : 'where');
  const [where, setWhere] = useState<ImportWhere>({ hosts: [...HOST_KINDS], workspaces: '', file: '', fileHost: '' });
  const [problems, setProblems] = useState<WhereProblems>({});
  const [found, setFound] = useState<ImportPreviewView | undefined>(initial);
  const [choices, setChoices] = useState<ImportChoices | undefined>(() => (initial ? initialChoices(initial) : undefined));
  const [outcome, setOutcome] = useState<ImportApplyResult | undefined>();
  const formId = useId();
  const bodyRef = useRef<HTMLDivElement>(null);

  // Each step's heading takes focus, so a keyboard or screen reader user lands on the new content.
  const firstStep = useRef(true);
  useEffect(() => {
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    bodyRef.current?.querySelector<HTMLElement>('[data-step-focus]')?.focus();
  }, [step]);

  const look = async (event: FormEvent) => {
    event.preventDefault();
    const { input, problems: found } = previewInput(where);
    setProblems(found);
    if (!input) return;
    const result = await preview.run(input);
    if (!result.ok) return;
    setFound(result.value);
    setChoices(initialChoices(result.value));
    apply.clearError();
    setStep('choose');
  };

  const importChosen = async () => {
    if (!found || !choices) return;
    const input = applyInput(found, choices);
    if (!input || hasNameProblems(found, choices)) return;
    const result = await apply.run(input);
    if (!result.ok) return;
    setOutcome(result.value);
    setStep('done');
  };

  const chosenCount = found && choices ? found.candidates.filter((c) => c.importable && choices.checked.has(c.key)).length : 0;
  const blocked = found && choices ? hasNameProblems(found, choices) : false;
  const nothingFound = found !== undefined && found.candidates.length === 0;
  const finish = () => {
    const first = outcome?.added[0];
    onClose();
    if (first) onImported(first.server.id);
  };

  const footer =
    step === 'where' ? (
      <>
        <InlineError error={preview.error} onDismiss={preview.clearError} />
        <span className="dialog__spacer" />
        <button type="button" className="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="submit" form={formId} className="button button--primary" disabled={preview.pending}>
          {preview.pending ? t('import.looking') : t('import.look')}
        </button>
      </>
    ) : step === 'choose' ? (
      <>
        <InlineError error={apply.error} onDismiss={apply.clearError} />
        <button type="button" className="button" onClick={() => setStep('where')}>
          {t('import.back')}
        </button>
        <span className="dialog__spacer" />
        <button type="button" className="button" onClick={onClose}>
          {nothingFound ? t('common.close') : t('common.cancel')}
        </button>
        {!nothingFound && (
          <button type="button" className="button button--primary" onClick={() => void importChosen()} disabled={apply.pending || chosenCount === 0 || blocked}>
            {t('import.submit', { count: chosenCount })}
          </button>
        )}
      </>
    ) : (
      <>
        <button type="button" className="button" onClick={() => setStep('where')}>
          {t('import.again')}
        </button>
        <span className="dialog__spacer" />
        <button type="button" className="button button--primary" onClick={finish} data-autofocus>
          {t('import.done')}
        </button>
      </>
    );

  return (
    <Dialog open size="large" title={t('import.title')} onClose={step === 'done' ? finish : onClose} testId="import-dialog" footer={footer}>
      <div ref={bodyRef} className="import">
        {step === 'where' && (
          <ImportWhereForm
            formId={formId}
            where={where}
            problems={problems}
            onChange={(next) => {
              setWhere(next);
              setProblems({});
              preview.clearError();
            }}
            onSubmit={(event) => void look(event)}
          />
        )}
        {step === 'choose' && found && choices && <ImportFound preview={found} choices={choices} onChange={setChoices} />}
        {step === 'done' && found && outcome && <ImportOutcome preview={found} outcome={outcome} />}
      </div>
    </Dialog>
  );
}
