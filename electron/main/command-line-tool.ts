// The "Install command line tool" menu item (tray, and macOS's application menu): Electron glue
// only. What it installs and where is electron/cli/command-line-install.ts; this shows the outcome.
import path from 'node:path';
import { app, dialog, type MenuItemConstructorOptions } from 'electron';
import { installCommandLine, type InstallOutcome } from '../cli/command-line-install.js';

interface Words {
  item: string;
  installed: (file: string) => string;
  addToPath: (dir: string) => string;
  tryIt: string;
  failed: string;
}

const WORDS: Record<'en' | 'de' | 'zh-CN', Words> = {
  en: {
    item: 'Install Command Line Tool…',
    installed: (file) => `The mcp-roots command is installed: ${file}`,
    addToPath: (dir) => `${dir} is not on your PATH yet: add it (for example in ~/.profile), then open a new terminal.`,
    tryIt: 'Open a new terminal and try: mcp-roots status',
    failed: 'The mcp-roots command could not be installed',
  },
  de: {
    item: 'Befehlszeilenwerkzeug installieren…',
    installed: (file) => `Der Befehl mcp-roots ist installiert: ${file}`,
    addToPath: (dir) => `${dir} ist noch nicht in Ihrem PATH: Fügen Sie es hinzu (zum Beispiel in ~/.profile) und öffnen Sie ein neues Terminal.`,
    tryIt: 'Öffnen Sie ein neues Terminal und versuchen Sie: mcp-roots status',
    failed: 'Der Befehl mcp-roots konnte nicht installiert werden',
  },
  'zh-CN': {
    item: '安装命令行工具…',
    installed: (file) => `mcp-roots 命令已安装：${file}`,
    addToPath: (dir) => `${dir} 还不在您的 PATH 中：请添加它（例如在 ~/.profile 中），然后打开新的终端。`,
    tryIt: '打开新的终端并尝试：mcp-roots status',
    failed: '无法安装 mcp-roots 命令',
  },
};

export function commandLineToolWords(locale: string): Words {
  const language = locale.toLowerCase();
  return language.startsWith('zh') ? WORDS['zh-CN'] : language.startsWith('de') ? WORDS.de : WORDS.en;
}

/** The dialog for an outcome: plain data, so each case is tested without a window. */
export function outcomeMessage(outcome: InstallOutcome, words: Words): { type: 'info' | 'warning' | 'error'; message: string; detail: string } {
  if (!outcome.ok) return { type: 'error', message: words.failed, detail: outcome.detail };
  const dir = path.dirname(outcome.path);
  return outcome.onPath
    ? { type: 'info', message: words.installed(outcome.path), detail: words.tryIt }
    : { type: 'warning', message: words.installed(outcome.path), detail: words.addToPath(dir) };
}

/** The menu item, or undefined where there is nothing to install (Windows). */
export function commandLineToolItem(platform: NodeJS.Platform = process.platform): MenuItemConstructorOptions | undefined {
  if (platform === 'win32') return undefined;
  const words = () => commandLineToolWords(app.getLocale());
  return {
    label: words().item,
    click: () => {
      void installCommandLine().then(
        (outcome) => dialog.showMessageBox(outcomeMessage(outcome, words())),
        (error: unknown) => dialog.showMessageBox({ type: 'error', message: words().failed, detail: error instanceof Error ? error.message : String(error) }),
      );
    },
  };
}
