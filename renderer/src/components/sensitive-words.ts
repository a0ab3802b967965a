// What granting a sensitive folder puts at stake, in the person's language: one table for every way
// a grant is made (the suggestion dialog, the matrix, the bulk Share, the consent prompt; #30 item 2).
import type { SensitiveFolderKind } from '../../../shared/sandbox.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';

export const SENSITIVE_WARNING: Record<SensitiveFolderKind, MessageKey> = {
  home: 'grantSuggestion.sensitive.home',
  credentials: 'grantSuggestion.sensitive.credentials',
  'browser-profile': 'grantSuggestion.sensitive.browserProfile',
  'app-data': 'grantSuggestion.sensitive.appData',
  system: 'grantSuggestion.sensitive.system',
};
