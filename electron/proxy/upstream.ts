// The real server behind the proxy, started from its registry config exactly as the app would
// (stdio child or HTTP/SSE session; confined by the OS sandbox unless it is off or unavailable).
// Its stderr goes to ours: hosts keep that as the server's log.
import type { Transport } from '@modelcontextprotocol/client';
import type { Writable } from 'node:stream';
import type { ServerRecord } from '../../shared/domain.js';
import type { SandboxSelfCheck, ServerConfinement } from '../../shared/sandbox.js';
import { injectRoots, usesRootPlaceholders } from '../host/launch/argument-injection.js';
import { StartSandbox } from '../host/launch/connection-sandbox.js';
import type { ConfinedStdio, LiveGrants } from '../host/sandbox/confine-stdio.js';
import { reportPreparation } from './preparation-progress.js';
import { shellWord } from '../../shared/shell-word.js';
import { fixCommand, toolRefusalNote } from './refusal-notes.js';
import { BROWSER_SANDBOX_FAILED, ownSandboxesFix } from '../host/launch/server-failure.js';
import type { ExposedFolder } from '../host/connections/roots-change-driver.js';
import { prepareStart, type StartOptions } from '../host/launch/stdio-start.js';
import { openTransport } from '../host/registry/secret-codec.js';
import { buildStdioTransport, type BuildOptions, type BuiltTransport } from '../host/launch/stdio-transport-factory.js';
import type { ActivityEvent } from '../../shared/activity-event.js';
import { englishOf } from '../../shared/i18n/activity-message.js';
import { startMark, startMarksLine } from '../host/sandbox/start-marks.js';

export interface Upstream {
  transport: Transport;
  pid?: number | undefined;
  confinement?: ServerConfinement | undefined;
  /** Enforced: proves the running server's sandbox from outside. */
  verify?: (() => Promise<SandboxSelfCheck>) | undefined;
  /** Whether (and how) its grants can change while it runs (live-mounts.ts). */
  live?: LiveGrants | undefined;
  /** The grants' protected names left writable by choice, as at its start (a change restarts it): live grants keep them. */
  writableByChoice?: ServerRecord['writableByChoice'];
  /** Enforced: tells `onHit` once per limit the running server reaches; returns the stop. */
  watchLimits?: ((onHit: (event: ActivityEvent) => void) => () => void) | undefined;
  /** Its start is over: its placeholders go once its sandbox is gone (protected-paths.ts). */
  release?: (() => Promise<void>) | undefined;
  /** After it ended: did the sandbox stand in its way? The words naming the path and the fix, or undefined. */
  blocked?: (() => Promise<string | undefined>) | undefined;
  /** A tool's error texts: the note to add when they name a path its sandbox refused (refusal-notes.ts). */
  refusalNote?: ((texts: readonly string[]) => string | undefined) | undefined;
  /** Why it may have ended: its sandbox refuses Unix sockets (a browser cannot start), with the narrowest fixes. */
  endedNote?: string | undefined;
  /** How its process ended (its exit code or signal), once it has. */
  exit?: (() => { code: number | null; signal: string | null } | undefined) | undefined;
  /** With a list of allowed hosts: changed live, as grants are. */
  egress?: ConfinedStdio['egress'];
}

export interface UpstreamHandlers {
  onmessage(message: unknown): void;
  onclose(): void;
  onerror(error: Error): void;
}

/** Starts the server with these effective folders (its `${roots}` placeholders, its sandbox's mounts). */
export async function openUpstream(
  record: ServerRecord,
  folders: readonly ExposedFolder[],
  handlers: UpstreamHandlers,
  stderr: Writable,
  options: StartOptions,
  progress: (text: string | undefined) => void = () => undefined,
): Promise<Upstream> {
  const config = usesRootPlaceholders(record.transport) ? injectRoots(record.transport, folders.map((folder) => folder.serverPath)) : record.transport;
  // Only a sandboxed start prepares the package itself; otherwise npx installs it inside the server's own process.
  const preparing = record.sandbox ? reportPreparation(record.transport, progress) : () => undefined;
  let prepared;
  try {
    // A refused destination is one line on our stderr, which hosts keep as the server's log.
    prepared = await prepareStart(record, config, folders, { onNetworkRefused: (line) => stderr.write(`mcp-roots: ${line}\n`), ...options });
  } finally {
    preparing();
  }
  const built = await buildTransport(prepared.transport, prepared.confined?.openDescriptors);
  const { transport } = built;
  transport.onmessage = (message) => handlers.onmessage(message);
  transport.onclose = () => handlers.onclose();
  transport.onerror = (error) => handlers.onerror(error);
  // end: false: one server exiting must not close the proxy's own stderr (a restart follows).
  built.stderr?.pipe(stderr, { end: false });
  // Its last lines, kept (as the app does) to tell a path the sandbox blocked from any other end.
  const sandbox = new StartSandbox(prepared.confined);
  if (built.stderr && prepared.confined) sandbox.readStderr(built.stderr, record.transport, () => undefined);
  startMark('spawn');
  await transport.start();
  startMark('started');
  const marks = startMarksLine();
  if (marks) stderr.write(`mcp-roots: ${marks}\n`);
  const pid = built.pid?.() ?? undefined;
  const confined = prepared.confined;
  const blocked = async () => {
    // Its last stderr lines may still be in the pipe when the exit is seen. Capped: a stuck pipe must not hold the answer back.
    await Promise.race([streamEnded(built.stderr), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    const found = sandbox.blocked(prepared.confinement);
    const block = found?.confinement.blocked;
    const command = block ? fixCommand(record.name, block) : undefined;
    const text = found && englishOf(found.event);
    return text && (command ? `${text} To allow it: ${command}` : text);
  };
  const endedNote = confined?.unixSocketsRefused
    ? `Its sandbox refuses Unix sockets, because its network is shared with this machine's (${confined.unixSocketsRefused}); a browser (Chromium) cannot start without them. To fix it: install the "passt" package (pasta gives it a network of its own), or, if it does not need the network: mcp-roots servers set ${shellWord(record.name)} --network off`
    : undefined;
  const refusalNote = (texts: readonly string[]) => {
    const found = confined?.stderrBlocked(texts.flatMap((text) => text.split('\n')));
    if (found) return toolRefusalNote(record.name, found);
    // Chromium's words when its filter refuses socket(AF_UNIX): `socket() failed: Operation not permitted`.
    if (endedNote && texts.some((text) => /socket\(\) failed: Operation not permitted/i.test(text))) return `MCP Roots Manager: ${endedNote}`;
    // A browser it started could not make its own sandbox: no user namespaces inside ours for it.
    if (confined && record.ownSandboxes !== true && texts.some((text) => BROWSER_SANDBOX_FAILED.test(text))) {
      return `MCP Roots Manager: its browser (Chromium) could not make a sandbox of its own inside the sandbox of ${record.name}. To fix it: ${ownSandboxesFix(record.name)}.`;
    }
    return undefined;
  };
  return {
    transport,
    pid,
    exit: built.exit,
    confinement: prepared.confinement,
    verify: confined ? () => confined.selfCheck(pid) : undefined,
    live: confined?.live,
    writableByChoice: record.writableByChoice,
    watchLimits: confined ? (onHit) => confined.watchLimits(pid, (hit) => onHit(hit.event)) : undefined,
    release: confined ? () => confined.release() : undefined,
    blocked,
    refusalNote,
    endedNote,
    egress: confined?.egress,
  };
}

/**
 * The transport-factory's work, with the HTTP and SSE clients loaded only for such a server: with
 * what only they reach they were 0.5 of the bundle's 1.3 MB, and most proxied servers are stdio. No
 * codec: the proxy's registry view opened the secrets, and one still sealed throws here, before
 * anything is spawned.
 */
async function buildTransport(sealedOrPlain: ServerRecord['transport'], childDescriptors: BuildOptions['childDescriptors']): Promise<BuiltTransport> {
  const config = openTransport(sealedOrPlain, undefined);
  if (config.type === 'stdio') return buildStdioTransport(config, { childDescriptors });
  const { buildHttpTransport } = await import('../host/launch/http-transport-factory.js');
  return buildHttpTransport(config);
}

function streamEnded(stream: NodeJS.ReadableStream | undefined): Promise<void> {
  if (!stream || (stream as { readableEnded?: boolean }).readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
  });
}
