// Opens the UI in the user's browser when there is one to open. Best effort: a headless box, a
// missing opener or a failing spawn only means the user opens the printed URL by hand.
//
// The URL holds the token, and any local user can read every process's argv (`ps`). So the opener
// is never given the URL: it is given a file, readable by this user only, that redirects to it
// (what Jupyter does with its jpserver-<pid>-open.html). The URL itself is printed to the terminal.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Opener {
  command: string;
  args: string[];
}

function openerFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, file: string): Opener | undefined {
  if (platform === 'darwin') return { command: 'open', args: [file] };
  // No cmd.exe: its quoting rules would have to be defended; this takes the path as one argument.
  if (platform === 'win32') return { command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', file] };
  // Elsewhere a browser needs a display; over plain SSH there is none.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { command: 'xdg-open', args: [file] };
}

/** The user's runtime folder when it is private to them (XDG), else a fresh private temp folder. */
function privateDir(env: NodeJS.ProcessEnv): { dir: string; owned: boolean } {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && path.isAbsolute(runtime)) {
    try {
      const stat = fs.statSync(runtime);
      const ours = typeof process.getuid !== 'function' || stat.uid === process.getuid();
      if (stat.isDirectory() && ours && (stat.mode & 0o077) === 0) return { dir: runtime, owned: false };
    } catch {
      // Missing or unreadable: fall back to a temp folder of our own.
    }
  }
  // mkdtemp creates it 0700.
  return { dir: fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-roots-')), owned: true };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function redirectPage(url: string): string {
  const attr = escapeHtml(url);
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    `<meta http-equiv="refresh" content="0;url=${attr}">`,
    '<title>MCP Roots Manager</title></head>',
    `<body><p>Opening <a href="${attr}">MCP Roots Manager</a>…</p>`,
    `<script>location.replace(${JSON.stringify(url).replace(/</g, '\\u003c')})</script>`,
    '</body></html>',
    '',
  ].join('\n');
}

export interface RedirectFile {
  path: string;
  /** Deletes the file (and its folder when we made one). Safe to call twice. */
  remove(): void;
}

/** Writes the redirect page, mode 0600, in a folder only this user can enter. */
export function writeRedirectFile(url: string, env: NodeJS.ProcessEnv = process.env): RedirectFile {
  const { dir, owned } = privateDir(env);
  const file = path.join(dir, `mcp-roots-serve-${process.pid}-open.html`);
  fs.rmSync(file, { force: true });
  // 'wx': never through a symlink or into a file someone else made in the meantime.
  fs.writeFileSync(file, redirectPage(url), { mode: 0o600, flag: 'wx' });
  let removed = false;
  return {
    path: file,
    remove() {
      if (removed) return;
      removed = true;
      fs.rmSync(owned ? dir : file, { recursive: true, force: true });
    },
  };
}

export interface OpenedBrowser {
  /** Whether an opener was launched (not whether a browser actually appeared). */
  launched: boolean;
  /** The redirect file, to remove once the page has loaded or the server stops. */
  redirect: RedirectFile | undefined;
}

export function openBrowser(url: string, platform = process.platform, env = process.env): OpenedBrowser {
  if (!openerFor(platform, env, '')) return { launched: false, redirect: undefined };
  let redirect: RedirectFile;
  try {
    redirect = writeRedirectFile(url, env);
  } catch {
    return { launched: false, redirect: undefined };
  }
  const opener = openerFor(platform, env, redirect.path)!;
  try {
    const child = spawn(opener.command, opener.args, { detached: true, stdio: 'ignore', env });
    child.on('error', () => {});
    child.unref();
    return { launched: true, redirect };
  } catch {
    redirect.remove();
    return { launched: false, redirect: undefined };
  }
}
