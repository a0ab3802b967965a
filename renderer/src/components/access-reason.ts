// Why a folder is not reachable, in the person's language. The host sends a stable code with each
// reason (its English text is for the CLI and logs); a host older than the code falls back to that text.
import type { AccessReasonCode, RootAccess } from '../../../shared/domain.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import type { Translate } from '../../../shared/i18n/translate.js';

const reasonKey: Record<AccessReasonCode, MessageKey> = {
  'became-file': 'access.reason.becameFile',
  'leads-elsewhere': 'access.reason.leadsElsewhere',
  deleted: 'access.reason.deleted',
  'parent-not-folder': 'access.reason.parentNotFolder',
  'no-permission': 'access.reason.noPermission',
  'symlink-loop': 'access.reason.symlinkLoop',
  other: 'access.reason.other',
};

export function accessReasonText(t: Translate, access: RootAccess): string | undefined {
  if (!access.reasonCode) return access.reason;
  return t(reasonKey[access.reasonCode], { target: access.target ?? '', detail: access.reason ?? '' });
}
