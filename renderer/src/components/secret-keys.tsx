// A server's environment variables or HTTP headers by name, values masked: what it will be started
// with, without the values (they never reach the UI in clear text).
import type { TransportConfig } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';

export function SecretKeys({ transport }: { transport: TransportConfig }) {
  const { t } = useI18n();
  const values = transport.type === 'stdio' ? transport.env : transport.headers;
  const keys = Object.keys(values);
  if (keys.length === 0) return null;
  const label = transport.type === 'stdio' ? t('import.envKeys', { count: keys.length }) : t('import.headerKeys', { count: keys.length });
  return (
    <dl className="secret-keys" aria-label={label}>
      <dt className="secret-keys__label">{label}</dt>
      {keys.map((key) => (
        <dd key={key} className="secret-keys__item mono">
          {key}=<span aria-label={t('import.maskedValue')}>{values[key]}</span>
        </dd>
      ))}
    </dl>
  );
}
