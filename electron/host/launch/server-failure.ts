// Why a server failed to start or connect, in words a person can act on: the server's own last
// stderr lines and exit code first, "command not found: npxx (did you mean npx?)", never the SDK's
// internals ("Version negotiation failed … disposable sibling probe …"), which are kept as detail.
// Pure: the connection gathers the facts, this decides what they mean.
import type { ServerFailure } from '../../../shared/domain.js';
import type { SandboxSetupCode } from '../../../shared/sandbox.js';
import { quote } from 'shell-quote';
import { PrivateNetworkError, privateNetworkFix } from '../sandbox/private-network.js';

export interface FailureFacts {
  /** What connect (or spawn) threw. */
  error: unknown;
  transport: 'stdio' | 'http' | 'sse';
  command?: string | undefined;
  /** The server's name in the registry, for a fix that names it. */
  server?: string | undefined;
  cwd?: string | undefined;
  url?: string | undefined;
  /** How the child process ended, when it did. */
  exit?: { code: number | null; signal: string | null } | undefined;
  /** The server's last stderr lines, oldest first. */
  stderr?: readonly string[] | undefined;
  timeoutMs?: number | undefined;
}

/** Chromium's (and the tools that start it) words when its own sandbox cannot be made. */
export const BROWSER_SANDBOX_FAILED = /No usable sandbox|sandboxing failed/i;

/** The narrow fix: its own sandboxes on for this server (never the sandbox off). */
export function ownSandboxesFix(serverName: string): string {
  return `allow it its own sandboxes (mcp-roots servers set ${quote([serverName])} --own-sandboxes on, or the server's "Own sandboxes" switch), or start its browser with --no-sandbox`;
}

/** Lines of the server's own words shown with a failure: enough for a stack's message, not the whole trace. */
export const STDERR_TAIL_LINES = 5;

/** Commands people launch MCP servers with: a near miss of one of these is a typo. */
const LAUNCHERS = ['npx', 'node', 'uvx', 'uv', 'python', 'python3', 'pipx', 'docker', 'deno', 'bun', 'bunx', 'pnpm', 'yarn', 'npm', 'java', 'go', 'dotnet', 'podman'];

export function describeServerFailure(facts: FailureFacts): ServerFailure {
  const detail = messageOf(facts.error);
  const errno = errnoOf(facts.error);
  const stderr = tail(facts.stderr);
  const said = stderr.length > 0 ? `: ${stderr.join(' / ')}` : '';

  if (facts.transport === 'stdio') {
    const command = facts.command ?? '';
    // The sandbox's network failed before the server ran: pasta's words and the narrow fix, not "exited".
    if (facts.error instanceof PrivateNetworkError) {
      const fix = privateNetworkFix(facts.server ?? 'NAME');
      return { code: 'private-network', message: `pasta could not give it a network of its own (${facts.error.pastaSaid}): ${fix}`, command, server: facts.server, detail: facts.error.pastaSaid };
    }
    if (errno === 'ENOENT' && isSpawnError(facts.error)) {
      const suggestion = suggestCommand(command);
      const base = `command not found: ${command}`;
      const hint = suggestion ? ` (did you mean ${suggestion}?)` : '';
      const cwdHint = facts.cwd ? `, or the working folder ${facts.cwd} does not exist` : '';
      return { code: 'command-not-found', message: `${base}${hint}${cwdHint}`, command, suggestion, cwd: facts.cwd, detail };
    }
    if ((errno === 'EACCES' || errno === 'EISDIR' || errno === 'ENOEXEC') && isSpawnError(facts.error)) {
      return { code: 'not-executable', message: `cannot run ${command}: it is not a program this user may run`, command, detail };
    }
    // Under bubblewrap the spawn succeeds (bwrap runs) and bwrap reports the missing program itself.
    const bwrap = stderr.map((line) => /^bwrap: execvp (.+): (No such file or directory|Permission denied)$/.exec(line)).find(Boolean);
    if (bwrap) {
      if (bwrap[2] === 'Permission denied') return { code: 'not-executable', message: `cannot run ${command}: it is not a program this user may run`, command, detail };
      const suggestion = suggestCommand(command);
      return { code: 'command-not-found', message: `command not found: ${command}${suggestion ? ` (did you mean ${suggestion}?)` : ''}`, command, suggestion, detail };
    }
    // Chromium's words when it cannot make its own sandbox (no user namespaces inside ours).
    if (facts.exit && stderr.some((line) => BROWSER_SANDBOX_FAILED.test(line))) {
      const how = facts.exit.code !== null ? `exited with code ${facts.exit.code}` : `was stopped by ${facts.exit.signal}`;
      return {
        code: 'browser-sandbox',
        message: `${how}: its browser (Chromium) could not make a sandbox of its own inside this one; ${ownSandboxesFix(facts.server ?? 'NAME')}`,
        command,
        server: facts.server,
        exitCode: facts.exit.code ?? undefined,
        signal: facts.exit.signal ?? undefined,
        stderr,
        detail,
      };
    }
    if (facts.exit && (facts.exit.code !== null || facts.exit.signal !== null)) {
      const how = facts.exit.code !== null ? `exited with code ${facts.exit.code}` : `was stopped by ${facts.exit.signal}`;
      return {
        code: 'exited',
        message: stderr.length > 0 ? `${how}${said}` : `${how} before answering, and wrote nothing to stderr`,
        command,
        exitCode: facts.exit.code ?? undefined,
        signal: facts.exit.signal ?? undefined,
        stderr,
        detail,
      };
    }
    if (isTimeout(facts.error)) {
      const within = facts.timeoutMs ? ` (${Math.round(facts.timeoutMs / 1000)} s)` : '';
      return { code: 'timed-out', message: `did not answer in time${within}${said}`, command, timeoutMs: facts.timeoutMs, stderr, detail };
    }
  } else {
    const url = facts.url ?? '';
    const status = httpStatusOf(facts.error);
    if (status !== undefined) return { code: 'http-status', message: `${url} answered HTTP ${status}`, url, httpStatus: status, detail };
    if (errno || /fetch failed|ECONNREFUSED|ENOTFOUND|EHOSTUNREACH/i.test(detail)) {
      const why = errno ? ` (${NETWORK_WORDS[errno] ?? errno})` : '';
      return { code: 'unreachable', message: `cannot reach ${url}${why}`, url, detail };
    }
    if (isTimeout(facts.error)) {
      const within = facts.timeoutMs ? ` (${Math.round(facts.timeoutMs / 1000)} s)` : '';
      return { code: 'timed-out', message: `${url} did not answer in time${within}`, url, timeoutMs: facts.timeoutMs, detail };
    }
  }
  // Nothing we recognise: the server's own words still come first, the library's after.
  return {
    code: 'other',
    message: stderr.length > 0 ? `stopped before the handshake finished${said}` : plainDetail(detail),
    ...(facts.command ? { command: facts.command } : {}),
    ...(facts.url ? { url: facts.url } : {}),
    stderr,
    detail,
  };
}

/**
 * A sandboxed start that stopped before anything ran: the sandbox has to locate the program first,
 * so a typo is caught there, and reads as the same "command not found: npxx" as an unsandboxed one.
 */
export function describeSetupFailure(setup: { code: SandboxSetupCode; message: string }, command: string | undefined): ServerFailure {
  // A bare name that is not on PATH; a path (./server) may exist without being runnable, so its own words stand.
  if (setup.code === 'command-not-found' && command && !/[\\/]/.test(command)) {
    const suggestion = suggestCommand(command);
    return { code: 'command-not-found', message: `command not found: ${command}${suggestion ? ` (did you mean ${suggestion}?)` : ''}`, command, suggestion, detail: setup.message };
  }
  return { code: 'other', message: `Not started: ${setup.message}`, detail: setup.message };
}

/**
 * Why a failed server waits for a change instead of a timer: the sandbox kept it from a path, or
 * its start cannot be prepared from its command line. Neither goes away on its own, so retrying
 * every 30 s only fills the log; a grant, a setting or the person's Reconnect is what can help,
 * and each of those starts it again.
 */
export type HoldReason = 'blocked-path' | 'setup' | 'exits-at-start';

/**
 * Starts in a row, each ended before it answered, after which a server is held: a command that is
 * not an MCP server (`node -e 1`) was retried every 30 s for good, filling History (#30 item 6).
 * Five: a server that crashes at start now and then still gets its backoff's first retries.
 */
export const EXITS_BEFORE_HOLD = 5;

/**
 * Setup failures only an edit of the server can fix. A missing command, a missing `uv` or a failed
 * install may be fixed outside the app (something installed, the network back), as for a server
 * started without the sandbox: those are still retried with backoff.
 */
const SETUP_HELD: ReadonlySet<SandboxSetupCode> = new Set(['npx-unsupported']);

/** How a failure is followed: held until something relevant changes, or retried with backoff (undefined). */
export function holdReason(cause: { blocked: boolean; setup?: SandboxSetupCode | undefined }): HoldReason | undefined {
  if (cause.setup && SETUP_HELD.has(cause.setup)) return 'setup';
  return cause.blocked ? 'blocked-path' : undefined;
}

/** The nearest common launcher within two edits (npxx -> npx, nod -> node, uxv -> uvx), if the command is not one. */
export function suggestCommand(command: string): string | undefined {
  const name = command.split(/[\\/]/).pop()?.replace(/\.(exe|cmd|bat)$/i, '').toLowerCase() ?? '';
  if (!name || LAUNCHERS.includes(name)) return undefined;
  let best: { launcher: string; distance: number } | undefined;
  for (const launcher of LAUNCHERS) {
    const distance = editDistance(name, launcher);
    if (distance <= Math.min(2, launcher.length - 1) && (!best || distance < best.distance)) best = { launcher, distance };
  }
  return best?.launcher;
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused: is the server running?',
  ENOTFOUND: 'no such host',
  EHOSTUNREACH: 'host unreachable',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'timed out',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed',
};

function tail(lines: readonly string[] | undefined): string[] {
  return (lines ?? []).map((line) => line.trim()).filter(Boolean).slice(-STDERR_TAIL_LINES);
}

/** The SDK's message without its negotiation preamble, for the rare failure nothing else explains. */
function plainDetail(detail: string): string {
  if (/version negotiation|probe|connection closed/i.test(detail)) return 'closed the connection before the handshake finished';
  return detail;
}

function isSpawnError(error: unknown): boolean {
  const syscall = fieldOf(error, 'syscall');
  return typeof syscall === 'string' ? syscall.startsWith('spawn') : /^spawn /.test(messageOf(error));
}

function isTimeout(error: unknown): boolean {
  return fieldOf(error, 'code') === 'REQUEST_TIMEOUT' || /timed? ?out/i.test(messageOf(error));
}

/** An errno-style code (ENOENT, ECONNREFUSED…) on the error or anywhere in its cause chain. */
function errnoOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; current = fieldOf(current, 'cause'), depth++) {
    const code = fieldOf(current, 'code');
    if (typeof code === 'string' && /^E[A-Z]+$|^[A-Z_]*CERT[A-Z_]*$/.test(code)) return code;
  }
  const match = /\b(ENOENT|EACCES|EISDIR|ENOEXEC|ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ECONNRESET)\b/.exec(messageOf(error));
  return match?.[1];
}

function httpStatusOf(error: unknown): number | undefined {
  for (let current = error, depth = 0; current && depth < 5; current = fieldOf(current, 'cause'), depth++) {
    for (const key of ['status', 'statusCode']) {
      const value = fieldOf(current, key);
      if (typeof value === 'number' && value >= 400 && value < 600) return value;
    }
    const data = fieldOf(current, 'data');
    const status = fieldOf(data, 'status');
    if (typeof status === 'number' && status >= 400 && status < 600) return status;
  }
  const match = /\bHTTP (\d{3})\b/.exec(messageOf(error));
  return match ? Number(match[1]) : undefined;
}

function fieldOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Edits between two words, a swap of neighbours counting as one (optimal string alignment): typos. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
