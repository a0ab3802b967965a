// An activity entry's words in the person's language. The host's English text is the fallback.
import type { ActivityEntry } from '../../../shared/domain.js';
import type { Translate } from '../i18n/translate.js';

export function activityMessage(_t: Translate, entry: ActivityEntry): string {
  return entry.message;
}
