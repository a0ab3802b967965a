#!/usr/bin/env node
// `mcp-roots`: the command line over the same registry the app uses. A running app or
// `mcp-roots serve` notices these edits through its file watch and tells its servers.
import { parseArgs } from 'node:util';
import { serverInputSchema } from '../../shared/contract.js';
import type { TransportConfig } from '../../shared/domain.js';
import { CodedError, toHostError } from '../../shared/result.js';
import { resolveConfigDir } from '../host/config-dir.js';
import { RegistrySession } from './registry-session.js';
import { formatRoots, formatServers, formatStatus } from './format.js';
import { findRoot, findServerRef } from '../host/registry-refs.js';

export const USAGE = `Usage: mcp-roots [--config-dir DIR] COMMAND

Roots (folders servers may see):
  roots add PATH...            add folders (paths or file:// URIs)
  roots remove ROOT...         remove roots (id, name or path); revokes them everywhere
  roots list [--json]
Servers:
  servers add NAME --command CMD [--arg A]... [--env K=V]... [--cwd DIR]
  servers add NAME --url URL [--transport http|sse] [--header "K: V"]...
               [--disabled] [--no-sharing]
  servers remove SERVER        (id or name)
  servers list [--json]
Consent:
  grant SERVER ROOT...         let a server see roots
  revoke SERVER ROOT...
  status [--json]              roots with accessibility, servers with grants
Roots everywhere (hosts without roots, servers that take folders as arguments):
  proxy [--roots-policy registry|host] SERVER
                               run as a stdio MCP server in place of SERVER: a host launches
                               this and the real server sees the registry's folders
  import [--from KIND]... [--file PATH]... [--host KIND] [--workspace DIR]...
         [--set '\${var}=VALUE']... [--apply] [NAME...]
                               servers from Claude Desktop, VS Code, Cursor, Claude Code configs
                               (a preview unless --apply; an import never grants a folder)
  use-with KIND SERVER... [--file PATH] [--workspace DIR] [--project DIR] [--launcher node|path]
                               rewrite a host's config so SERVER runs through the proxy
                               (KIND: claude-desktop, vscode, cursor, claude-code; keeps a backup)
  In a server's --arg or --env, \${roots} stands for the granted folders.
Desktop UI without Electron:
  serve [--port N] [--no-open] serve the UI on 127.0.0.1

The registry lives in --config-dir, else $MCP_ROOTS_CONFIG_DIR, else the app's own folder.`;

const options = {
  'config-dir': { type: 'string' },
  json: { type: 'boolean', default: false },
  command: { type: 'string' },
  arg: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  transport: { type: 'string' },
  disabled: { type: 'boolean', default: false },
  'no-sharing': { type: 'boolean', default: false },
  port: { type: 'string' },
  'no-open': { type: 'boolean', default: false },
  'roots-policy': { type: 'string' },
  host: { type: 'string' },
  project: { type: 'string' },
  launcher: { type: 'string' },
  from: { type: 'string', multiple: true },
  file: { type: 'string', multiple: true },
  workspace: { type: 'string', multiple: true },
  set: { type: 'string', multiple: true },
  apply: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

export async function main(argv: string[], out = process.stdout, err = process.stderr): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    err.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, sub, ...rest] = positionals;
  if (values.help || !command) {
    out.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  const configDir = resolveConfigDir(values['config-dir']);
  // These run their own host (or none): each is loaded only when asked for.
  if (command === 'serve') {
    const { runServe } = await import('../serve/run-serve.js');
    return runServe({ configDir, port: values.port, open: !values['no-open'] });
  }
  if (command === 'proxy') {
    const policy = values['roots-policy'] ?? 'registry';
    if (!sub || rest.length > 0 || (policy !== 'registry' && policy !== 'host')) {
      err.write(`mcp-roots proxy takes one SERVER and --roots-policy registry|host.\n\n${USAGE}\n`);
      return 2;
    }
    const { runProxy } = await import('../proxy/run-proxy.js');
    return runProxy({ configDir, server: sub, rootsPolicy: policy });
  }
  if (command === 'import') {
    const { runImport } = await import('../import/run-import.js');
    return runImport({
      configDir,
      from: values.from,
      files: values.file,
      host: values.host,
      workspaces: values.workspace,
      apply: values.apply,
      only: [sub, ...rest].filter((name): name is string => name !== undefined),
      values: values.set,
      json: values.json,
      out,
      err,
    });
  }
  if (command === 'use-with') {
    const { runUseWith } = await import('../import/run-import.js');
    if (!sub || rest.length === 0) {
      err.write(`mcp-roots use-with needs a host KIND and at least one SERVER.\n\n${USAGE}\n`);
      return 2;
    }
    if ((values.file?.length ?? 0) > 1 || (values.workspace?.length ?? 0) > 1) {
      err.write('mcp-roots use-with takes one --file and one --workspace.\n');
      return 2;
    }
    return runUseWith({
      configDir,
      host: sub,
      servers: rest,
      file: values.file?.[0],
      workspace: values.workspace?.[0],
      project: values.project,
      launcher: values.launcher,
      json: values.json,
      out,
      err,
    });
  }
  let session: RegistrySession | undefined;
  try {
    session = await RegistrySession.open(configDir);
    const text = await run(session, command, sub, rest, values);
    if (text) out.write(`${text}\n`);
    return 0;
  } catch (error) {
    const { code, message } = toHostError(error);
    err.write(`mcp-roots: ${message}${code === 'invalid-input' ? `\n\n${USAGE}` : ''}\n`);
    return code === 'invalid-input' ? 2 : 1;
  } finally {
    await session?.close();
  }
}

async function run(host: RegistrySession, command: string, sub: string | undefined, rest: string[], values: Values): Promise<string> {
  const json = (value: unknown): string => JSON.stringify(value, null, 2);
  const registry = () => host.registry;
  const edit = host.editor;
  switch (command) {
    case 'roots':
      if (sub === 'add') {
        if (rest.length === 0) throw new CodedError('invalid-input', 'roots add needs at least one path.');
        const { added: records, failed } = await edit.addRoots(rest);
        const ids = new Set(records.map((root) => root.id));
        const result = { added: host.getState().roots.filter((root) => ids.has(root.id)), failed };
        if (values.json) return json(result);
        const lines = result.added.map((root) => `added ${root.name}  ${root.canonicalPath}  (${root.id})`);
        for (const failure of result.failed) lines.push(`failed ${failure.input}: ${failure.message}`);
        if (result.failed.length > 0 && result.added.length === 0) throw new CodedError('invalid-input', lines.join('\n'));
        return lines.join('\n');
      }
      if (sub === 'remove') {
        if (rest.length === 0) throw new CodedError('invalid-input', 'roots remove needs at least one root.');
        await edit.removeRoots(rest.map((ref) => findRoot(registry(), ref).id));
        return `removed ${rest.length} root(s)`;
      }
      if (sub === 'list') return values.json ? json(host.getState().roots) : formatRoots(host.getState());
      break;
    case 'servers':
      if (sub === 'add') {
        const [name] = rest;
        if (!name) throw new CodedError('invalid-input', 'servers add needs a NAME.');
        const input = serverInputSchema.safeParse({
          name,
          transport: transportFrom(values),
          enabled: !values.disabled,
          sharing: !values['no-sharing'],
        });
        if (!input.success) throw new CodedError('invalid-input', input.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
        const { id } = await edit.addServer(input.data);
        const server = host.getState().servers.find((candidate) => candidate.id === id);
        return values.json ? json(server) : `added server ${input.data.name} (${id})`;
      }
      if (sub === 'remove') {
        const [ref] = rest;
        if (!ref) throw new CodedError('invalid-input', 'servers remove needs a SERVER.');
        await edit.removeServer(findServerRef(registry(), ref).id);
        return `removed server ${ref}`;
      }
      if (sub === 'list') return values.json ? json(host.getState().servers) : formatServers(host.getState());
      break;
    case 'grant':
    case 'revoke': {
      const [serverRef, ...rootRefs] = [sub, ...rest];
      if (!serverRef || rootRefs.length === 0) throw new CodedError('invalid-input', `${command} needs a SERVER and at least one ROOT.`);
      const server = findServerRef(registry(), serverRef);
      const rootIds = rootRefs.map((ref) => findRoot(registry(), ref).id);
      await edit.setGrants([server.id], rootIds, command === 'grant');
      return `${command === 'grant' ? 'granted' : 'revoked'} ${rootIds.length} root(s) ${command === 'grant' ? 'to' : 'from'} ${server.name}`;
    }
    case 'status':
      return values.json ? json(host.getState()) : formatStatus(host.getState());
  }
  throw new CodedError('invalid-input', `Unknown command: ${[command, sub].filter(Boolean).join(' ')}`);
}

function transportFrom(values: Values): TransportConfig {
  if (values.command && values.url) throw new CodedError('invalid-input', 'Give either --command or --url, not both.');
  if (values.command) {
    return {
      type: 'stdio',
      command: values.command,
      args: values.arg ?? [],
      env: pairs(values.env ?? [], '=', '--env'),
      ...(values.cwd ? { cwd: values.cwd } : {}),
    };
  }
  if (values.url) {
    const type = values.transport ?? 'http';
    if (type !== 'http' && type !== 'sse') throw new CodedError('invalid-input', '--transport is http or sse.');
    return { type, url: values.url, headers: pairs(values.header ?? [], ':', '--header') };
  }
  throw new CodedError('invalid-input', 'A server needs --command (stdio) or --url (http/sse).');
}

function pairs(items: string[], separator: string, flag: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    if (at <= 0) throw new CodedError('invalid-input', `${flag} takes KEY${separator}VALUE, got "${item}".`);
    result[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return result;
}

// Run when executed directly (the bin shim imports this file and calls main itself).
const invokedDirectly = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
