// What the matrix's cells mean: shared, hidden right now, not shared, and each mode's mark. A list of
// its own beside the toolbar, so a short window can show it below the grid and give the grid its rows.
import { useI18n } from '../i18n/i18n-context.js';
import { GrantSample, ModeSample } from './grant-toggle.js';

export function MatrixLegend() {
  const { t } = useI18n();
  return (
    <ul className="legend matrix-legend" aria-label={t('matrix.legend')}>
      <li>
        <GrantSample look="on" />
        {t('matrix.legendOn')}
      </li>
      <li>
        <GrantSample look="hidden" />
        {t('matrix.legendHidden')}
      </li>
      <li>
        <GrantSample look="off" />
        {t('matrix.legendOff')}
      </li>
      <li>
        <ModeSample look="rw" text={t('grantMode.shortReadWrite')} />
        {t('matrix.legendReadWrite')}
      </li>
      <li>
        <ModeSample look="ro" text={t('grantMode.shortReadOnly')} />
        {t('matrix.legendReadOnly')}
      </li>
      <li>
        <ModeSample look="ro-advisory" text={`${t('grantMode.shortReadOnly')}*`} />
        {t('matrix.legendAdvisory')}
      </li>
    </ul>
  );
}
