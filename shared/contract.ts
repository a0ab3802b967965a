// The one contract between the host and every UI (Electron IPC, the headless server, tests).
// Channel -> zod input schema + result type. Channel names appear nowhere else as loose strings.
import { z } from 'zod';
import type { NetworkRecordRow } from './network-record.js';
import type { FileDiff, ServerChanges } from './file-record.js';
import type {
  ActivityEntry,
  HostState,
  ServerActivityEntry,
  RootView,
  ServerView,
  ServerId,
} from './domain.js';
import {
  HOST_KINDS,
  type ImportApplyResult,
  type ImportPreviewView,
  type UseWithApplyResult,
  type UseWithPreview,
} from './import-types.js';
import { allowHostsSchema, grantModeSchema, localPortsSchema, pathMappingSchema, serverLimitsSchema, settingsSchema, transportSchema } from './registry-schema.js';

/** Carries a result type in the contract without a runtime value. */
const returns = <T>() => undefined as unknown as T;

const id = z.string().min(1).max(128);
const ids = z.array(id).min(1).max(10_000);

/** A server's editable fields, every one optional: an edit changes exactly what it names. */
export const serverPatchSchema = z
  .object({
    name: z.string().trim().min(1).max(256),
    transport: transportSchema,
    enabled: z.boolean(),
    sharing: z.boolean(),
    sandbox: z.boolean(),
    network: z.boolean(),
    ownSandboxes: z.boolean(),
    allowLocal: localPortsSchema,
    /** null: any host (the list goes). */
    allowHosts: allowHostsSchema.nullable(),
    askForFolders: z.boolean(),
    pathMap: z.array(pathMappingSchema).max(256),
    limits: serverLimitsSchema,
  })
  .partial();

/** A new server: name and transport, the rest defaulted (on). No defaults in a patch: they would undo settings. */
export const serverInputSchema = serverPatchSchema.required({ name: true, transport: true }).extend({
  enabled: z.boolean().default(true),
  sharing: z.boolean().default(true),
  sandbox: z.boolean().default(true),
  network: z.boolean().default(true),
  askForFolders: z.boolean().default(true),
});

const hostKind = z.enum(HOST_KINDS);
/** A path as typed or picked; the host checks it is absolute (parseRootInput) before any use. */
const pathText = z.string().min(1).max(4096);
/** A candidate key is "<file>#[<project>#]<entry name>". */
const candidateKey = z.string().min(1).max(16_384);

const useWithInput = z
  .object({
    host: hostKind,
    serverIds: ids.max(1000),
    /** The host's config file; default its existing (or standard) user or workspace config. */
    file: pathText.optional(),
    /** Write the workspace config of this folder (.vscode/mcp.json, .cursor/mcp.json, .mcp.json). */
    workspace: pathText.optional(),
    /** ~/.claude.json only: that project's (local-scope) servers. Kept as written: it is a key there. */
    project: pathText.optional(),
    /** 'node' (default): full paths (the installed app's executable, else node + bin/mcp-roots.js); 'path': plain `mcp-roots` from the host's PATH. */
    launcher: z.enum(['node', 'path']).optional(),
    /**
     * Per server id, where the host already has a different server of its name: 'add' it as
     * NAME-2 or 'replace' that one. Given, a clash without a choice is not written (no default).
     */
    clashes: z.record(z.string().max(200), z.enum(['replace', 'add'])).optional(),
  })
  .strict()
  .refine((input) => input.file === undefined || input.workspace === undefined, 'Give file or workspace, not both.')
  .refine((input) => input.project === undefined || input.host === 'claude-code', 'project is for claude-code only.')
  .refine((input) => input.project === undefined || input.workspace === undefined, 'project is in ~/.claude.json, not a workspace.');

/** One folder's subfolders, for a folder picker where the OS dialog is out of reach (a browser). */
export interface FolderListing {
  /** Absolute, `~` expanded. */
  path: string;
  /** Absent at the top of the disk. */
  parent?: string | undefined;
  home: string;
  entries: FolderEntry[];
  /** More subfolders than are listed. */
  truncated: boolean;
}

export interface FolderEntry {
  name: string;
  path: string;
  /** A dot-folder. */
  hidden: boolean;
  /** A symbolic link to a folder. */
  link: boolean;
}

export interface AddRootsResult {
  added: RootView[];
  failed: { input: string; code: string; message: string }[];
}

/** What a removal or a revoke returns: `undoId` undoes it with `undo.apply` (null: nothing to undo). */
export interface UndoTicket {
  undoId: string | null;
}

export const contract = {
  'state.get': { input: z.object({}).strict(), result: returns<HostState>() },
  'roots.add': {
    input: z.object({ paths: z.array(z.string().max(65_536)).min(1).max(1000) }).strict(),
    result: returns<AddRootsResult>(),
  },
  'roots.remove': { input: z.object({ rootIds: ids }).strict(), result: returns<UndoTicket>() },
  /** The subfolders of `path` (default: home; `~` expands), for picking folders without the OS dialog. */
  'folders.list': {
    input: z.object({ path: pathText.optional(), showHidden: z.boolean().optional() }).strict(),
    result: returns<FolderListing>(),
  },
  /** The user confirms a root whose folder now resolves elsewhere (swapped for a symlink). */
  'roots.acceptTarget': { input: z.object({ rootId: id }).strict(), result: returns<RootView>() },
  /** Re-probe now; without rootIds, every root. */
  'roots.recheck': { input: z.object({ rootIds: ids.optional() }).strict(), result: returns<null>() },
  'roots.rename': {
    input: z.object({ rootId: id, name: z.string().trim().min(1).max(256) }).strict(),
    result: returns<null>(),
  },
  'servers.add': { input: serverInputSchema.strict(), result: returns<ServerView>() },
  'servers.update': {
    input: z.object({ serverId: id, patch: serverPatchSchema.strict() }).strict(),
    result: returns<null>(),
  },
  'servers.remove': { input: z.object({ serverId: id }).strict(), result: returns<UndoTicket>() },
  /**
   * Puts back what a removal or a revoke took away: same ids, places, grants and modes, except a
   * grant revoked after it, or one whose folder or server is gone.
   */
  'undo.apply': { input: z.object({ undoId: id }).strict(), result: returns<{ restored: number }>() },
  /** A folder named by an argument gives way to `${roots}`: the grants decide from then on. */
  'servers.replaceArgumentFolder': { input: z.object({ serverId: id, path: pathText }).strict(), result: returns<null>() },
  'servers.reconnect': { input: z.object({ serverId: id }).strict(), result: returns<null>() },
  'servers.setSharing': {
    input: z.object({ serverId: id, sharing: z.boolean() }).strict(),
    result: returns<null>(),
  },
  'servers.setEnabled': {
    input: z.object({ serverId: id, enabled: z.boolean() }).strict(),
    result: returns<null>(),
  },
  'servers.activity': {
    input: z.object({ serverId: id }).strict(),
    result: returns<ActivityEntry[]>(),
  },
  /** What the server did in its grants since `since` (epoch ms): its net changes, what was refused, how many files it read. */
  'servers.changes': {
    input: z.object({ serverId: id, since: z.number().int().min(0) }).strict(),
    result: returns<ServerChanges>(),
  },
  /** One recorded file's content before the server's first change against now, as a line diff. */
  'servers.diff': {
    input: z.object({ serverId: id, file: pathText }).strict(),
    result: returns<FileDiff>(),
  },
  /** The server's record of network destinations (with a list of allowed hosts), newest first. */
  'servers.network': {
    input: z.object({ serverId: id }).strict(),
    result: returns<NetworkRecordRow[]>(),
  },
  /** Every server's records (file operations, network destinations) as History entries, newest kept; `since`: epoch ms. */
  'activity.records': { input: z.object({ since: z.number().int().min(0) }).strict(), result: returns<ServerActivityEntry[]>() },
  /** Every server's activity log at once, each oldest first: the history across servers. */
  'activity.history': { input: z.object({}).strict(), result: returns<ServerActivityEntry[]>() },
  /** Grants (with a mode, or keeping each pair's mode; new ones read-write) or revokes every pair. */
  'grants.set': {
    input: z.object({ serverIds: ids, rootIds: ids, granted: z.boolean(), mode: grantModeSchema.optional() }).strict(),
    /** `changed`: how many (server, folder) pairs it changed. */
    result: returns<UndoTicket & { changed: number }>(),
  },
  /** The protected names left writable in one grant, by the person's choice (an empty list: none). */
  'grants.setWritable': {
    input: z.object({ serverId: id, rootId: id, names: z.array(z.string().max(64)).max(64) }).strict(),
    result: returns<null>(),
  },
  'consent.dismiss': { input: z.object({ requestId: id }).strict(), result: returns<null>() },
  'notices.dismiss': { input: z.object({ noticeId: id }).strict(), result: returns<null>() },
  'settings.update': { input: settingsSchema.partial().strict(), result: returns<null>() },
  /**
   * Reads other hosts' configs. `files`: exactly these. `from` / `workspaces`: the known locations
   * of those hosts (default all), user configs and the workspaces' own. Only `files`: no discovery.
   */
  'import.preview': {
    input: z
      .object({
        from: z.array(hostKind).min(1).max(HOST_KINDS.length).optional(),
        files: z.array(z.object({ path: pathText, host: hostKind }).strict()).min(1).max(100).optional(),
        workspaces: z.array(pathText).min(1).max(100).optional(),
      })
      .strict(),
    result: returns<ImportPreviewView>(),
  },
  /** A pasted `mcpServers` / `servers` snippet (or one entry), previewed as `import.preview` would a file. */
  'import.snippet': { input: z.object({ text: z.string().min(1).max(1_000_000) }).strict(), result: returns<ImportPreviewView>() },
  /** Imports the chosen candidates of the host's last preview, re-reading its files. Grants nothing. */
  'import.apply': {
    input: z
      .object({
        previewId: id,
        keys: z.array(candidateKey).min(1).max(1000),
        /** Registry names by candidate key, instead of the proposed ones. */
        names: z.record(candidateKey, z.string().trim().min(1).max(256)).optional(),
        /** Values for variables, keyed as written: { "${input:token}": "…" }. */
        values: z.record(z.string().regex(/^\$\{[^}]+\}$/).max(1024), z.string().max(65_536)).optional(),
        /** Start the imported servers at once (default: yes). The UI asks the person; off adds them switched off. */
        start: z.boolean().optional(),
      })
      .strict(),
    result: returns<ImportApplyResult>(),
  },
  /** What `useWith.apply` would write, without writing. */
  'useWith.preview': { input: useWithInput, result: returns<UseWithPreview>() },
  /** Rewrites a host's config so these servers run through `mcp-roots proxy`; backs up the original first. */
  'useWith.apply': { input: useWithInput, result: returns<UseWithApplyResult>() },
} as const;

export type Contract = typeof contract;
export type Channel = keyof Contract;
export type ChannelInput<C extends Channel> = z.input<Contract[C]['input']>;
export type ParsedInput<C extends Channel> = z.output<Contract[C]['input']>;
export type ChannelResult<C extends Channel> = Contract[C]['result'];
export const channels = Object.keys(contract) as Channel[];

/** Events the host pushes to every UI. */
export interface EventPayloads {
  state: HostState;
  activity: { serverId: ServerId; entry: ActivityEntry };
}
export type EventName = keyof EventPayloads;
export const eventNames: EventName[] = ['state', 'activity'];

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && Object.hasOwn(contract, value);
}
