// How a server runs, as one badge: "Enforced (OS sandbox)", "Advisory (roots only): <reason>" or
// "Off (you turned it off)". The detail form adds the self-check ("verified at 14:03", or a warning
// when it failed) and the network fact of an enforced server.
import type { ServerView } from '../../../shared/domain.js';
import { REPO_SEARCH_DEPTH } from '../../../shared/protected-names.js';
import type { ServerConfinement } from '../../../shared/sandbox.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useLive } from '../use-live.js';
import { Badge, UnknownBadge } from './access-badge.js';
import { confinementLabel, confinementLook, confinementShortLabel, confinementTone, type ConfinementLook } from './confinement-view.js';

type BadgeServer = Pick<ServerView, 'transport' | 'enabled' | 'sandbox' | 'status'>;

export function ConfinementBadge({ server }: { server: BadgeServer }) {
  return <LookBadge look={confinementLook(server)} hostReason={hostReason(server.status.confinement)} />;
}

/** A badge for a look already made (a proxied session's, for one). */
export function LookBadge({ look, hostReason }: { look: ConfinementLook; hostReason?: string | undefined }) {
  const { t } = useI18n();
  if (!useLive()) return <UnknownBadge />;
  const label = confinementLabel(t, look);
  return (
    <span className="confinement" data-testid="confinement-badge" data-confinement={look.state}>
      <Badge tone={confinementTone[look.state]} title={hostReason ?? label}>
        {label}
      </Badge>
    </span>
  );
}

/** The host's own English reason, for the tooltip when it says more than the translated one. */
export function hostReason(confinement: ServerConfinement | undefined): string | undefined {
  return confinement?.setupError?.message ?? confinement?.reason;
}

/** The badge and, under it, what was checked: verified at hh:mm, or why it could not be. */
export function ConfinementFacts({ server }: { server: BadgeServer }) {
  const look = confinementLook(server);
  return (
    <div className="confinement-facts" data-testid="confinement">
      <ConfinementBadge server={server} />
      <ConfinementDetail look={look} />
    </div>
  );
}

function ConfinementDetail({ look }: { look: ConfinementLook }) {
  const { t, locale } = useI18n();
  if (look.state !== 'enforced') return look.state === 'not-started' ? <p className="field-hint mono">{look.message}</p> : null;
  const clock = look.at !== undefined ? new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(look.at) : '';
  return (
    <p className="confinement-facts__line">
      {look.verified === 'yes' && (
        <span className="confinement-facts__verified" title={look.detail}>
          {t('sandbox.verifiedAt', { time: clock })}
        </span>
      )}
      {look.verified === 'pending' && <span className="muted">{t('sandbox.verifying')}</span>}
      {look.verified === 'no' && (
        <span className="confinement-facts__unverified" role="alert">
          {t('sandbox.notVerified', { time: clock })} {look.detail}
        </span>
      )}
      <span className="confinement-facts__network">{look.network ? t('sandbox.networkOnFact') : t('sandbox.networkOffFact')}</span>
      {look.grants && (
        <span className={`confinement-facts__grants confinement-facts__grants--${look.grants}`} data-testid="confinement-grants" title={t(look.grants === 'view' ? 'sandbox.grantsViewHelp' : 'sandbox.grantsMountsHelp', { depth: REPO_SEARCH_DEPTH })}>
          {t(look.grants === 'view' ? 'sandbox.grantsViewFact' : 'sandbox.grantsMountsFact')}
        </span>
      )}
    </p>
  );
}

/** The compact form for the matrix column header: one word, the full line as its tooltip. */
export function ConfinementTag({ server }: { server: BadgeServer }) {
  const { t } = useI18n();
  const live = useLive();
  if (!live) return null;
  const look = confinementLook(server);
  return (
    <span className={`confinement-tag confinement-tag--${confinementTone[look.state]}`} title={confinementLabel(t, look)} data-confinement={look.state}>
      {confinementShortLabel(t, look)}
    </span>
  );
}
