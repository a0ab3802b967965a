// Inline rename: Enter saves, Escape cancels, and a rejected name stays in the field with its error.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { RootView } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { InlineError } from './inline-error.js';

export function RootNameEditor({ root, onDone }: { root: RootView; onDone(): void }) {
  const { t } = useI18n();
  const rename = useCommand('roots.rename');
  const [name, setName] = useState(root.name);
  const inputRef = useRef<HTMLInputElement>(null);
  const errorId = useId();

  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, []);

  const save = async () => {
    const trimmed = name.trim();
    if (trimmed === root.name || trimmed === '') return onDone();
    const result = await rename.run({ rootId: root.id, name: trimmed });
    if (result.ok) onDone();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onDone();
    }
  };

  return (
    <div className="root-name-editor">
      <div className="root-name-editor__row">
        <input
          ref={inputRef}
          className="input input--compact"
          value={name}
          aria-label={t('roots.renameLabel', { name: root.name })}
          aria-invalid={rename.error ? true : undefined}
          aria-describedby={rename.error ? errorId : undefined}
          onChange={(event) => setName(event.target.value)}
          onKeyDown={onKeyDown}
          maxLength={256}
        />
        <button type="button" className="button button--primary button--compact" onClick={() => void save()} disabled={rename.pending}>
          {t('common.save')}
        </button>
        <button type="button" className="button button--compact" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
      <InlineError error={rename.error} id={errorId} />
    </div>
  );
}
