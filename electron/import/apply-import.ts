// Import, step two: add the chosen candidates to the registry.
// Decision: an imported server is ENABLED with roots sharing on and NO grants. An import never
// grants anything (default deny): the server connects, asks, is told [] and raises a consent
// request, which is exactly how the person learns it wants folders. It is imported DISABLED only
// when it cannot start as it should: a variable is still unresolved (it would run with a literal
// "${input:token}"), or the host itself has it switched off; or when the person chose not to start
// it yet (the UI asks: an imported server runs with whatever keys its entry carries).
import { serverInputSchema } from '../../shared/contract.js';
import type { ServerId } from '../../shared/domain.js';
import { CodedError, toHostError, type ErrorCode } from '../../shared/result.js';
import type { ServerInput } from '../host/registry/registry-edits.js';
import { substituteVariables, variablesIn } from './entry-transport.js';
import type { ImportCandidate } from './preview-import.js';

export interface ImportChoice {
  candidate: ImportCandidate;
  /** Overrides the proposed name. */
  name?: string | undefined;
  /** Values for variables, keyed by the variable as written: { "${input:token}": "…" }. */
  values?: Readonly<Record<string, string>> | undefined;
  /** false: add it switched off, whatever else holds (the person starts it when ready). */
  start?: boolean | undefined;
}

export interface ImportOutcome {
  added: { key: string; serverId: ServerId; name: string; enabled: boolean; unresolved: string[] }[];
  failed: { key: string; name: string; code: ErrorCode; message: string }[];
}

/** Whatever adds servers: the app's host or a one-shot registry editor. */
export interface ServerAdder {
  addServer(input: ServerInput): Promise<{ id: ServerId }>;
}

export async function applyImport(host: ServerAdder, choices: readonly ImportChoice[]): Promise<ImportOutcome> {
  const outcome: ImportOutcome = { added: [], failed: [] };
  // Queued in one tick, the adds are written to the registry together, once.
  const settled = await Promise.allSettled(choices.map((choice) => addOne(host, choice)));
  settled.forEach((result, i) => {
    const choice = choices[i] as ImportChoice;
    const name = choice.name ?? choice.candidate.name;
    if (result.status === 'fulfilled') outcome.added.push({ key: choice.candidate.key, name, ...result.value });
    else outcome.failed.push({ key: choice.candidate.key, name, ...toHostError(result.reason) });
  });
  return outcome;
}

async function addOne(host: ServerAdder, { candidate, name, values, start }: ImportChoice) {
  if (candidate.proxiedServer !== undefined) {
    throw new CodedError('invalid-input', `"${candidate.originalName}" already runs through mcp-roots proxy (${candidate.proxiedServer}).`);
  }
  const transport = substituteVariables(candidate.transport, values ?? {});
  const unresolved = variablesIn(transport);
  const enabled = start !== false && unresolved.length === 0 && !candidate.disabledInHost;
  const input = serverInputSchema.safeParse({ name: name ?? candidate.name, transport, enabled, sharing: true });
  if (!input.success) {
    throw new CodedError('invalid-input', input.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  }
  const server = await host.addServer(input.data);
  return { serverId: server.id, enabled, unresolved };
}
