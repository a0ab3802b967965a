// Before/after of a host's config, as lines: removed in red with "−", added in green with "+", long
// unchanged stretches folded. The sign and a hidden word say it too, never the color alone.
import type { DiffLine } from '../../../shared/import-types.js';
import { useI18n } from '../i18n/i18n-context.js';

export function ConfigDiff({ lines, label }: { lines: readonly DiffLine[]; label: string }) {
  const { t } = useI18n();
  return (
    // Focusable: a scrolling region must be reachable from the keyboard.
    <ol className="config-diff mono" aria-label={label} tabIndex={0}>
      {lines.map((line, index) =>
        line.kind === 'skipped' ? (
          <li key={index} className="config-diff__line config-diff__line--skipped">
            {t('useWith.diffSkipped', { count: line.count ?? 0 })}
          </li>
        ) : (
          <li key={index} className={`config-diff__line config-diff__line--${line.kind}`}>
            <span className="config-diff__sign" aria-hidden="true">
              {line.kind === 'added' ? '+' : line.kind === 'removed' ? '−' : ' '}
            </span>
            {line.kind !== 'same' && <span className="visually-hidden">{line.kind === 'added' ? t('useWith.diffAdded') : t('useWith.diffRemoved')} </span>}
            <span className="config-diff__text">{line.text}</span>
          </li>
        ),
      )}
    </ol>
  );
}
