// The desktop app's side of "one app host per registry" (electron/host/status/app-host-claim.ts): it claims
// the registry before starting any server; when `mcp-roots serve` (or an app on another Electron
// profile) holds it, it says where that one is and quits instead of running every server twice.
import { app, dialog } from 'electron';
import { claimAppHost, type AppHostClaim, type AppHostHolder } from '../host/status/app-host-claim.js';

interface Words {
  title: string;
  body: (holder: AppHostHolder) => string;
}

const WORDS: Record<'en' | 'de' | 'zh-CN', Words> = {
  en: {
    title: 'MCP Roots Manager is already running',
    body: (holder) =>
      `${holder.kind === 'serve' ? `\`mcp-roots serve\` (pid ${holder.pid})${holder.url ? ` at ${holder.url}` : ''}` : `Another MCP Roots Manager (pid ${holder.pid})`} already runs the servers of this registry. A second one would run each of them twice. Use that one, or stop it first.`,
  },
  de: {
    title: 'MCP Roots Manager läuft bereits',
    body: (holder) =>
      `${holder.kind === 'serve' ? `\`mcp-roots serve\` (PID ${holder.pid})${holder.url ? ` unter ${holder.url}` : ''}` : `Ein anderer MCP Roots Manager (PID ${holder.pid})`} führt die Server dieser Registry bereits aus. Ein zweiter würde jeden davon doppelt starten. Verwenden Sie diesen oder beenden Sie ihn zuerst.`,
  },
  'zh-CN': {
    title: 'MCP Roots Manager 已在运行',
    body: (holder) =>
      `${holder.kind === 'serve' ? `\`mcp-roots serve\`（PID ${holder.pid}）${holder.url ? `，地址 ${holder.url}` : ''}` : `另一个 MCP Roots Manager（PID ${holder.pid}）`}已在运行此注册表的服务器。再启动一个会让每个服务器运行两次。请使用那一个，或先将其停止。`,
  },
};

export function oneHostWords(systemLocale: string): Words {
  const language = systemLocale.toLowerCase();
  return language.startsWith('zh') ? WORDS['zh-CN'] : language.startsWith('de') ? WORDS.de : WORDS.en;
}

/** The claim, released when the app quits; undefined when another host holds the registry (then the app exits 1). */
export function claimRegistryOrQuit(configDir: string): AppHostClaim | undefined {
  const claimed = claimAppHost(configDir, 'app');
  if (!claimed.ok) {
    const words = oneHostWords(app.getLocale());
    dialog.showErrorBox(words.title, words.body(claimed.holder));
    app.exit(1);
    return undefined;
  }
  app.on('will-quit', () => claimed.claim.release());
  return claimed.claim;
}
