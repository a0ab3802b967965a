// Env variables / HTTP headers. Values are secrets: typed into password fields, and stored values
// arrive masked, so a kept value shows as "saved" and is sent back as the mask (= keep it).
import { useId, useState } from 'react';
import { SECRET_MASK } from '../../../shared/secrets.js';
import { useI18n } from '../i18n/i18n-context.js';
import { CloseIcon, PlusIcon } from './icons.js';

export interface SecretPair {
  id: number;
  key: string;
  value: string;
  /** The host holds the value; we only know it exists. */
  kept: boolean;
}

let nextPairId = 1;
export const newPair = (key = '', value = ''): SecretPair => ({ id: nextPairId++, key, value, kept: false });

export function pairsFromRecord(record: Record<string, string>): SecretPair[] {
  return Object.entries(record).map(([key, value]) => ({ ...newPair(key), kept: value === SECRET_MASK, value: value === SECRET_MASK ? '' : value }));
}

export function pairsToRecord(pairs: SecretPair[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (const pair of pairs) {
    const key = pair.key.trim();
    if (key) record[key] = pair.kept ? SECRET_MASK : pair.value;
  }
  return record;
}

/** The first problem with the pairs, as a message key, or undefined. */
export function pairsProblem(pairs: SecretPair[]): 'form.pairNoKey' | 'form.pairDuplicate' | undefined {
  const seen = new Set<string>();
  for (const pair of pairs) {
    const key = pair.key.trim();
    if (!key && (pair.value || pair.kept)) return 'form.pairNoKey';
    if (key && seen.has(key)) return 'form.pairDuplicate';
    seen.add(key);
  }
  return undefined;
}

export interface SecretPairsEditorProps {
  legend: string;
  keyLabel: string;
  addLabel: string;
  pairs: SecretPair[];
  onChange(pairs: SecretPair[]): void;
  problem?: string | undefined;
  keyPlaceholder?: string;
}

export function SecretPairsEditor({ legend, keyLabel, addLabel, pairs, onChange, problem, keyPlaceholder }: SecretPairsEditorProps) {
  const { t } = useI18n();
  const [reveal, setReveal] = useState(false);
  const problemId = useId();
  const update = (id: number, patch: Partial<SecretPair>) => onChange(pairs.map((pair) => (pair.id === id ? { ...pair, ...patch } : pair)));

  return (
    <fieldset className="pairs" aria-describedby={problem ? problemId : undefined}>
      <legend className="field-label">{legend}</legend>
      {pairs.length > 0 && (
        <ul className="pairs__list">
          {pairs.map((pair, index) => (
            <li key={pair.id} className="pairs__row">
              <input
                className="input input--mono input--compact"
                value={pair.key}
                placeholder={keyPlaceholder}
                aria-label={t('form.pairKey', { label: keyLabel, index: index + 1 })}
                onChange={(event) => update(pair.id, { key: event.target.value })}
                spellCheck={false}
                autoComplete="off"
              />
              <input
                className="input input--mono input--compact"
                type={reveal ? 'text' : 'password'}
                value={pair.value}
                placeholder={pair.kept ? t('form.secretKept') : t('form.secretValue')}
                aria-label={t('form.pairValue', { key: pair.key || String(index + 1) })}
                onChange={(event) => update(pair.id, { value: event.target.value, kept: false })}
                spellCheck={false}
                autoComplete="off"
              />
              <button
                type="button"
                className="icon-button"
                aria-label={t('form.pairRemove', { key: pair.key || String(index + 1) })}
                onClick={() => onChange(pairs.filter((candidate) => candidate.id !== pair.id))}
              >
                <CloseIcon size={14} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="pairs__actions">
        <button type="button" className="button button--ghost button--compact" onClick={() => onChange([...pairs, newPair()])}>
          <PlusIcon /> {addLabel}
        </button>
        {pairs.some((pair) => pair.value) && (
          <label className="checkbox-label">
            <input type="checkbox" className="checkbox" checked={reveal} onChange={(event) => setReveal(event.target.checked)} />
            {t('form.revealValues')}
          </label>
        )}
      </div>
      {problem && (
        <p id={problemId} className="field-error" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
