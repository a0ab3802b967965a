// Opens the UI in the user's browser when there is one to open. Best effort: a headless box, a
// missing opener or a failing spawn only means the user opens the printed URL by hand.
import { spawn } from 'node:child_process';

interface Opener {
  command: string;
  args: string[];
  verbatim?: boolean;
}

function openerFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, url: string): Opener | undefined {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd builtin; the empty title keeps the quoted URL from being taken as one.
  if (platform === 'win32') return { command: 'cmd.exe', args: ['/d', '/s', '/c', `start "" "${url}"`], verbatim: true };
  // Elsewhere a browser needs a display; over plain SSH there is none.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { command: 'xdg-open', args: [url] };
}

/** Returns whether an opener was launched (not whether a browser actually appeared). */
export function openBrowser(url: string, platform = process.platform, env = process.env): boolean {
  // The URL is ours (http://127.0.0.1:port/#token=base64url); refuse anything a shell could misread.
  if (!/^http:\/\/[\w.:[\]/#=-]+$/.test(url)) return false;
  const opener = openerFor(platform, env, url);
  if (!opener) return false;
  try {
    const child = spawn(opener.command, opener.args, {
      detached: true,
      stdio: 'ignore',
      windowsVerbatimArguments: opener.verbatim ?? false,
    });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
