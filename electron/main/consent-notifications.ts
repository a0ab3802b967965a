// An OS notification when servers ask for folders while the window is not in front: the request
// waits in the app (the server was told "none"), and the person would otherwise not know. One
// notification for however many asked: a newer one replaces the last, with the total count.
import { Notification } from 'electron';
import type { HostState } from '../../shared/domain.js';
import type { RootsHost } from '../host/roots-host.js';

export interface ConsentNotificationOptions {
  /** The window is focused: the request is already on screen. */
  isFocused(): boolean;
  /** Brings the window forward (a click on the notification). */
  show(): void;
  /** The OS language, for the 'system' setting. */
  systemLocale(): string;
}

type Words = { one(name: string): string; many(count: number): string; body: string };

/** The three languages of the UI; the notification is the only text the main process shows. */
const WORDS: Record<'en' | 'de' | 'zh-CN', Words> = {
  en: { one: (name) => `${name} asked for folders`, many: (count) => `${count} servers asked for folders`, body: 'It was told “none” for now. Choose what it may see.' },
  de: { one: (name) => `${name} hat nach Ordnern gefragt`, many: (count) => `${count} Server haben nach Ordnern gefragt`, body: 'Die Antwort war vorerst „keine“. Wähle, was er sehen darf.' },
  'zh-CN': { one: (name) => `${name} 请求访问文件夹`, many: (count) => `${count} 个服务器请求访问文件夹`, body: '目前的回答是“无”。请选择它可以查看的内容。' },
};

export function wordsFor(setting: string, systemLocale: string): Words {
  const language = (setting === 'system' ? systemLocale : setting).toLowerCase();
  return language.startsWith('zh') ? WORDS['zh-CN'] : language.startsWith('de') ? WORDS.de : WORDS.en;
}

export function setupConsentNotifications(host: Pick<RootsHost, 'getState' | 'on' | 'off'>, options: ConsentNotificationOptions): () => void {
  // Requests already open when the app starts are on screen the moment it is shown: no notification.
  const seen = new Set(host.getState().consentRequests.map((request) => request.id));
  let shown: Notification | undefined;

  const onState = (state: HostState): void => {
    const fresh = state.consentRequests.filter((request) => !seen.has(request.id));
    if (fresh.length === 0) return;
    for (const request of fresh) seen.add(request.id);
    if (options.isFocused() || !Notification.isSupported()) return;
    const open = state.consentRequests;
    const words = wordsFor(state.settings.locale, options.systemLocale());
    const first = state.servers.find((server) => server.id === open[0]?.serverId);
    const title = open.length === 1 && first ? words.one(first.name) : words.many(open.length);
    shown?.close();
    const notification = new Notification({ title, body: words.body });
    notification.on('click', () => options.show());
    notification.show();
    shown = notification;
  };

  host.on('state', onState);
  return () => {
    host.off('state', onState);
    shown?.close();
  };
}
