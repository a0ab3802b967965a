// What the UI sees of importing servers from other hosts' configs and of "use with <host>".
// Plain data: every transport here is masked, every variable is shown as written, never expanded.
import type { ServerId, ServerView, TransportConfig } from './domain.js';
import type { HostError } from './result.js';
import type { ArgumentFolderView } from './sandbox.js';

/** The hosts whose MCP configs are read (import) and written (use with). */
export const HOST_KINDS = ['claude-desktop', 'vscode', 'cursor', 'claude-code'] as const;
export type HostKind = (typeof HOST_KINDS)[number];

/** Product names: the same in every language. */
export const HOST_LABELS: Record<HostKind, string> = {
  'claude-desktop': 'Claude Desktop',
  vscode: 'VS Code',
  cursor: 'Cursor',
  'claude-code': 'Claude Code',
};

/** Where a pasted snippet's candidates say they come from, in place of a file path. */
export const PASTED_SOURCE = 'pasted text';

export interface ImportSourceView {
  host: HostKind;
  path: string;
  /** Found in the host's user config, in a workspace folder, picked by the person, or pasted. */
  scope: 'user' | 'workspace' | 'picked' | 'pasted';
  /** Why the file could not be read or parsed; its candidates are then missing. */
  error?: HostError | undefined;
}

/** A VS Code input a variable refers to: what to ask the person. */
export interface ImportInputView {
  id: string;
  description?: string | undefined;
  password: boolean;
  /** Left out for password inputs: a default there is a secret. */
  default?: string | undefined;
}

export interface ImportCandidateView {
  /** Pass back to `import.apply`; stable for the same file, project and entry name. */
  key: string;
  /** Proposed registry name: the host's name, suffixed when another server already has it. */
  name: string;
  originalName: string;
  host: HostKind;
  source: string;
  /** ~/.claude.json local-scope servers: the project folder. */
  project?: string | undefined;
  /** Env and header values masked. */
  transport: TransportConfig;
  /** Every ${...} in the entry, verbatim. */
  variables: string[];
  inputs: ImportInputView[];
  /** A registry server that already runs the same command and arguments, or the same URL. */
  duplicateOf?: ServerId | undefined;
  /** The key of an earlier candidate of the same server (another file or scope). */
  sameAs?: string | undefined;
  /** The entry already runs through `mcp-roots proxy` (this registry server name). */
  proxiedServer?: string | undefined;
  disabledInHost: boolean;
  /** Folders its command line or env names: roots will not limit them (and the sandbox will hide them until granted). */
  argumentFolders: ArgumentFolderView[];
  /** New, not ours, not a repeat: `import.apply` accepts only these. */
  importable: boolean;
  notes: string[];
}

export interface ImportPreviewView {
  /** Names this preview for `import.apply`; a newer preview on the same host replaces it. */
  previewId: string;
  sources: ImportSourceView[];
  candidates: ImportCandidateView[];
  /** Entries that could not become a server, with the reason. */
  skipped: { source: string; name: string; reason: string }[];
}

export interface ImportedServer {
  key: string;
  /** Masked, as in the state; no folders granted. */
  server: ServerView;
  /** Variables still in the config: the server was added disabled until they are filled in. */
  unresolved: string[];
}

export interface ImportApplyResult {
  added: ImportedServer[];
  /** Candidates the registry refused (a name taken meanwhile, an invalid config). */
  failed: { key: string; name: string; error: HostError }[];
}

/** One line of a before/after diff; `skipped` stands for `count` unchanged lines left out. */
export interface DiffLine {
  kind: 'same' | 'added' | 'removed' | 'skipped';
  text: string;
  count?: number | undefined;
}

export interface UseWithEntryView {
  serverId: ServerId;
  server: string;
  /** The entry's name in the host's config. */
  entry: string;
  /** An entry of that name or that command/URL was there and is overwritten. */
  replaced: boolean;
  /** It already runs through the proxy exactly so: nothing to write for it. */
  unchanged?: boolean | undefined;
  /**
   * The host has a different server under this name: 'undecided' until the person chooses to add
   * this one as `addAs` or to replace that one (nothing is written for it meanwhile).
   */
  clash?: 'undecided' | 'replace' | 'add' | undefined;
  addAs?: string | undefined;
  command: string;
  args: string[];
}

export interface UseWithPreview {
  file: string;
  /** False when the file does not exist yet: applying creates it. */
  exists: boolean;
  entries: UseWithEntryView[];
  /** The file has comments, which a rewrite loses (the backup keeps them). */
  commentsDropped: boolean;
  /** The servers section before and after, env and header values masked. */
  diff?: DiffLine[] | undefined;
}

export interface UseWithApplyResult {
  file: string;
  /** The copy of the original; absent when there was no file and a new one was created. */
  backup?: string | undefined;
  /** The entry names written (none when everything was already so: then nothing is written or backed up). */
  written: string[];
  /** Entries that already ran through the proxy exactly so. */
  unchanged?: string[] | undefined;
  /** Of those, the ones that overwrote an existing entry. */
  replaced: string[];
  commentsDropped: boolean;
}
