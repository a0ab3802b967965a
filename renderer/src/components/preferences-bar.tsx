// Language and theme switchers in the header. Language names are written in their own language
// so a person who cannot read the current one can still find theirs.
import type { Settings } from '../../../shared/domain.js';
import { useI18n } from '../i18n/i18n-context.js';
import { ContrastIcon, GlobeIcon } from './icons.js';
import { PreferenceSelect } from './preference-select.js';

export function PreferencesBar({ settings }: { settings: Settings }) {
  const { t } = useI18n();
  return (
    <div className="preferences">
      <PreferenceSelect
        setting="locale"
        value={settings.locale}
        label={t('settings.language')}
        icon={<GlobeIcon size={15} />}
        options={[
          { value: 'system', label: t('settings.system') },
          { value: 'en', label: 'English', lang: 'en' },
          { value: 'zh-CN', label: '简体中文', lang: 'zh-CN' },
          { value: 'de', label: 'Deutsch', lang: 'de' },
        ]}
      />
      <PreferenceSelect
        setting="theme"
        value={settings.theme}
        label={t('settings.theme')}
        icon={<ContrastIcon size={15} />}
        options={[
          { value: 'system', label: t('settings.system') },
          { value: 'light', label: t('settings.light') },
          { value: 'dark', label: t('settings.dark') },
        ]}
      />
    </div>
  );
}
