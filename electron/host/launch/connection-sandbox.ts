// The sandbox side of one server's connection (server-connection.ts): how a start is prepared and
// what a failure to prepare it means, the stderr lines kept to explain a later failure, whether the
// sandbox stood in the way, and the check of the running process after start.
import type { ServerFailure, ServerRecord, TransportConfig } from '../../../shared/domain.js';
import type { SandboxSelfCheck, SandboxSetupCode, ServerConfinement } from '../../../shared/sandbox.js';
import { readBoundedLines } from './bounded-lines.js';
import type { ExposedFolder } from '../access/exposure.js';
import type { ConfinedStdio, LiveGrants } from '../sandbox/confine-stdio.js';
import { SandboxSetupError } from '../sandbox/sandbox-types.js';
import { redactSecretValues } from '../registry/secret-codec.js';
import { describeSetupFailure } from './server-failure.js';
import { prepareStart, type PreparedStart, type StartOptions } from './stdio-start.js';
import type { ActivityEvent } from '../../../shared/activity-event.js';

/** The stderr lines kept to explain a failure (a path the sandbox kept the server from). */
const STDERR_TAIL = 40;
const MAX_STDERR_LINE = 2000;

export type StartPreparation =
  | { kind: 'ready'; prepared: PreparedStart }
  /** Not started; `setup`: why the sandbox could not prepare it (server-failure.ts holdReason decides whether a timer helps). */
  | { kind: 'not-started'; failure: ServerFailure; setup?: SandboxSetupCode | undefined; confinement?: ServerConfinement | undefined };

/** Prepares one start. A server whose sandbox cannot be prepared is never started unconfined instead. */
export async function prepareConnectionStart(
  record: ServerRecord,
  transport: TransportConfig,
  folders: readonly ExposedFolder[],
  options: StartOptions,
): Promise<StartPreparation> {
  try {
    return { kind: 'ready', prepared: await prepareStart(record, transport, folders, options) };
  } catch (error) {
    if (error instanceof SandboxSetupError) {
      return {
        kind: 'not-started',
        // Worded like an unsandboxed failure: "command not found: nod (did you mean node?)".
        failure: describeSetupFailure(error, record.transport.type === 'stdio' ? record.transport.command : undefined),
        setup: error.code,
        confinement: { state: 'enforced', setupError: { code: error.code, message: error.message } },
      };
    }
    return { kind: 'not-started', failure: { code: 'other', message: `Cannot start: ${error instanceof Error ? error.message : String(error)}` } };
  }
}

/** One start's sandbox, while enforced: its stderr tail, what blocked it, its self-check. */
export class StartSandbox {
  private readonly tail: string[] = [];

  constructor(private readonly confined: ConfinedStdio | undefined) {}

  /** The last stderr lines of this start, oldest first (redacted): a failure leads with them. */
  get stderrTail(): readonly string[] {
    return this.tail;
  }

  /** Whether (and how) its grants can change while it runs. */
  get live(): LiveGrants | undefined {
    return this.confined?.live;
  }

  /** With a list of allowed hosts: changed live, as grants are. */
  get egress(): ConfinedStdio['egress'] {
    return this.confined?.egress;
  }

  get enforced(): boolean {
    return this.confined !== undefined;
  }

  /** Reads the server's stderr by lines, each shown with its own secrets redacted; the last few are kept. */
  readStderr(stream: NodeJS.ReadableStream, transport: TransportConfig, shown: (line: string) => void): void {
    readBoundedLines(
      stream,
      (line) => {
        if (line.length === 0) return;
        // A server that logs its own token must not show it to the UI.
        const redacted = redactSecretValues(line, transport);
        this.tail.push(redacted);
        if (this.tail.length > STDERR_TAIL) this.tail.shift();
        shown(redacted);
      },
      { maxLineChars: MAX_STDERR_LINE },
    );
  }

  /** After a failure: did the sandbox stand in its way? The confinement to show, and the words, or undefined. */
  blocked(current: ServerConfinement | undefined): { confinement: ServerConfinement; event: ActivityEvent } | undefined {
    const blocked = this.confined?.stderrBlocked(this.tail);
    if (!blocked || !current) return undefined;
    return {
      confinement: { ...current, blocked: { kind: blocked.kind, path: blocked.path, folder: blocked.folder, line: blocked.line, sensitive: blocked.sensitive } },
      event: { code: blocked.kind === 'read-only-grant' ? 'sandbox-blocked-read-only' : 'sandbox-blocked', params: { path: blocked.path } },
    };
  }

  /**
   * Proves the sandbox of the running process from outside (its mounts, a folder it must not see).
   * Undefined when nothing is enforced.
   */
  async check(pid: number | undefined): Promise<SandboxSelfCheck | undefined> {
    return this.confined?.selfCheck(pid);
  }

  private stopWatching: () => void = () => undefined;

  /** Tells `onHit` once per limit the running server reaches (limit-watch.ts), until `dispose`. */
  watchLimits(pid: number | undefined, onHit: (event: ActivityEvent) => void): void {
    this.stopWatching();
    this.stopWatching = this.confined?.watchLimits(pid, (hit) => onHit(hit.event)) ?? (() => undefined);
  }

  /** This start is over: nothing more is watched, and its placeholders go once its sandbox is gone. */
  dispose(): void {
    this.stopWatching();
    void this.confined?.release();
  }
}
