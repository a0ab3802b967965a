// Folders a server's command line or environment names (`server-filesystem /a /b`): they bypass
// roots, so they are listed with what each one means here, and offered folder by folder: "Grant this
// folder" (a root for it if needed, then a grant to this server only) or "Replace with ${roots}"
// (the argument gives way to the grants). Nothing is granted without a click.
import type { ServerView } from '../../../shared/domain.js';
import type { ArgumentFolderView } from '../../../shared/sandbox.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { Translate } from '../../../shared/i18n/translate.js';
import { useCommand } from '../use-command.js';
import { useGrantFolder } from '../use-grant-folder.js';
import { confinementLook, enforcesModes } from './confinement-view.js';
import { InlineError } from './inline-error.js';

export function argumentSourceText(t: Translate, source: ArgumentFolderView['source']): string {
  return source.kind === 'arg' ? t('argFolders.sourceArg', { index: source.index + 1 }) : t('argFolders.sourceEnv', { name: source.name });
}

/** A server's argument folders with the two offers (server detail, and after an import). */
export function ArgumentFolders({ server, headingLevel = 3 }: { server: ServerView; headingLevel?: 3 | 4 }) {
  const { t } = useI18n();
  const grant = useGrantFolder();
  const replace = useCommand('servers.replaceArgumentFolder');
  if (server.argumentFolders.length === 0) return null;
  const look = confinementLook(server);
  const lead = enforcesModes(look) ? 'argFolders.leadEnforced' : look.state === 'idle' ? 'argFolders.leadIdle' : 'argFolders.leadAdvisory';
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const busy = grant.pending !== undefined || replace.pending;
  return (
    <section className="arg-folders" aria-label={t('argFolders.title', { name: server.name })} data-testid="argument-folders">
      <Heading className="arg-folders__title">{t('argFolders.heading')}</Heading>
      <p className="field-hint">{t(lead)}</p>
      <ul className="arg-folders__list">
        {server.argumentFolders.map((folder) => (
          <li key={`${folder.source.kind}:${folder.source.kind === 'arg' ? folder.source.index : folder.source.name}:${folder.path}`} className="arg-folders__item">
            <span className="arg-folders__path mono" title={folder.path}>
              {folder.path}
            </span>
            <span className="arg-folders__source muted">{argumentSourceText(t, folder.source)}</span>
            <span className="arg-folders__actions">
              {folder.granted ? (
                <span className="badge badge--success">
                  <span className="badge__dot" aria-hidden="true" />
                  {t('argFolders.granted')}
                </span>
              ) : (
                <button
                  type="button"
                  className="button button--compact"
                  disabled={busy}
                  aria-label={t('argFolders.grantLabel', { path: folder.path })}
                  onClick={() => void grant.run(server.id, folder.path)}
                >
                  {t('argFolders.grant')}
                </button>
              )}
              {folder.source.kind === 'arg' && (
                <button
                  type="button"
                  className="button button--compact"
                  disabled={busy}
                  aria-label={t('argFolders.replaceLabel', { path: folder.path })}
                  onClick={() => void replace.run({ serverId: server.id, path: folder.path })}
                >
                  {t('argFolders.replace')}
                </button>
              )}
            </span>
          </li>
        ))}
      </ul>
      <InlineError error={grant.error} onDismiss={grant.clearError} />
      <InlineError error={replace.error} onDismiss={replace.clearError} />
    </section>
  );
}

/** The import preview's flag: which folders a candidate names, before it is a server. */
export function ArgumentFoldersFlag({ folders }: { folders: readonly ArgumentFolderView[] }) {
  const { t } = useI18n();
  if (folders.length === 0) return null;
  return (
    <div className="arg-folders arg-folders--flag" data-testid="argument-folders-flag">
      <p className="field-hint field-hint--warning">{t('argFolders.importFlag', { count: folders.length })}</p>
      <ul className="arg-folders__list">
        {folders.map((folder) => (
          <li key={`${folder.source.kind}:${folder.source.kind === 'arg' ? folder.source.index : folder.source.name}:${folder.path}`} className="arg-folders__item">
            <span className="arg-folders__path mono">{folder.path}</span>
            <span className="arg-folders__source muted">{argumentSourceText(t, folder.source)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
