// The file `mcp-roots export` writes and `mcp-roots import-registry` reads, for moving to a new
// machine. Roots are named by path, grants by the root's path, servers by name: ids are per machine.
// Secrets are left out unless asked for (--include-secrets): every value secret-values.ts would mask
// becomes null (a URL loses only its credential) and is named in `leftOut`, so the import can say
// what to fill in. A value the desktop app encrypted is always left out: this process cannot read it.
import { z } from 'zod';
import type { Registry, ServerRecord, TransportConfig } from '../../shared/domain.js';
import { CodedError } from '../../shared/result.js';
import { allowHostsSchema, httpTransportSchema, localPortsSchema, pathMappingSchema } from '../../shared/registry-schema.js';
import { isSealedValue, isSecret, isSecretValue } from './secret-values.js';

export const EXPORT_KIND = 'mcp-roots-registry';
export const EXPORT_FORMAT = 1;

const text = z.string().max(65_536);
const leftOutValue = text.nullable();
const pairs = z.record(z.string().min(1).max(512), leftOutValue);

const exportedTransportSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('stdio'), command: z.string().min(1).max(4096), args: z.array(leftOutValue).max(1024), env: pairs, cwd: z.string().min(1).max(4096).optional() }).strict(),
  z.object({ type: z.enum(['http', 'sse']), url: httpTransportSchema.shape.url, headers: pairs }).strict(),
]);

export const exportDocumentSchema = z
  .object({
    kind: z.literal(EXPORT_KIND),
    format: z.literal(EXPORT_FORMAT),
    exportedAt: z.string(),
    secrets: z.enum(['left-out', 'included']),
    roots: z.array(z.object({ path: z.string().min(1).max(4096), canonicalPath: z.string().min(1).max(4096), name: z.string().min(1).max(256) }).strict()).max(100_000),
    servers: z
      .array(
        z
          .object({
            name: z.string().trim().min(1).max(256),
            enabled: z.boolean(),
            sharing: z.boolean(),
            sandbox: z.boolean(),
            network: z.boolean(),
            ownSandboxes: z.boolean().optional(),
            allowLocal: localPortsSchema.optional(),
            allowHosts: allowHostsSchema.optional(),
            askForFolders: z.boolean(),
            pathMap: z.array(pathMappingSchema).max(256).optional(),
            transport: exportedTransportSchema,
            /** What was left out, in words: "env GITHUB_TOKEN", "header Authorization", "argument 3", "url password". */
            leftOut: z.array(z.string().max(600)).max(2048).default([]),
            /** The roots this server was granted, by canonical path, with the grant's mode. */
            grants: z.array(z.object({ path: z.string().min(1).max(4096), mode: z.enum(['read-write', 'read-only']) }).strict()).max(100_000),
          })
          .strict(),
      )
      .max(10_000),
  })
  .strict();

export type ExportDocument = z.infer<typeof exportDocumentSchema>;
export type ExportedServer = ExportDocument['servers'][number];
export type ExportedTransport = ExportedServer['transport'];

export function exportRegistry(registry: Registry, includeSecrets: boolean, now = new Date()): ExportDocument {
  const canonicalOf = new Map(registry.roots.map((root) => [root.id, root.canonicalPath]));
  return {
    kind: EXPORT_KIND,
    format: EXPORT_FORMAT,
    exportedAt: now.toISOString(),
    secrets: includeSecrets ? 'included' : 'left-out',
    roots: registry.roots.map((root) => ({ path: root.path, canonicalPath: root.canonicalPath, name: root.name })),
    servers: registry.servers.map((server) => {
      const { transport, leftOut } = exportTransport(server, includeSecrets);
      const grants = Object.entries(registry.grants[server.id] ?? {}).flatMap(([rootId, mode]) => {
        const path = canonicalOf.get(rootId);
        return path === undefined ? [] : [{ path, mode }];
      });
      return {
        name: server.name,
        enabled: server.enabled,
        sharing: server.sharing,
        sandbox: server.sandbox,
        network: server.network,
        ...(server.ownSandboxes ? { ownSandboxes: true } : {}),
        ...(server.allowLocal?.length ? { allowLocal: server.allowLocal } : {}),
        ...(server.allowHosts ? { allowHosts: server.allowHosts } : {}),
        askForFolders: server.askForFolders,
        ...(server.pathMap ? { pathMap: server.pathMap } : {}),
        transport,
        leftOut,
        grants,
      };
    }),
  };
}

function exportTransport(server: ServerRecord, includeSecrets: boolean): { transport: ExportedTransport; leftOut: string[] } {
  const leftOut: string[] = [];
  // Sealed values cannot be exported at all; the rest only when the person asked for secrets.
  const keep = (value: string, secret: boolean) => !isSealedValue(value) && (includeSecrets || !secret);
  const transport: TransportConfig = server.transport;
  const keepPairs = (values: Record<string, string>, label: string) =>
    Object.fromEntries(
      Object.entries(values).map(([name, value]) => {
        if (keep(value, isSecret(name, value))) return [name, value];
        leftOut.push(`${label} ${name}${isSealedValue(value) ? ' (encrypted by the desktop app)' : ''}`);
        return [name, null];
      }),
    );
  if (transport.type === 'stdio') {
    const args = transport.args.map((arg, index) => {
      if (keep(arg, argIsSecret(arg))) return arg;
      leftOut.push(`argument ${index + 1}${isSealedValue(arg) ? ' (encrypted by the desktop app)' : ''}`);
      return null;
    });
    return { transport: { type: 'stdio', command: transport.command, args, env: keepPairs(transport.env, 'env'), ...(transport.cwd ? { cwd: transport.cwd } : {}) }, leftOut };
  }
  return { transport: { type: transport.type, url: includeSecrets ? transport.url : urlWithoutCredentials(transport.url, leftOut), headers: keepPairs(transport.headers, 'header') }, leftOut };
}

/** `--token=…` or a secret-shaped argument. */
function argIsSecret(arg: string): boolean {
  const flag = /^--?([\w.-]+)=(.*)$/s.exec(arg);
  return flag ? isSecret(flag[1] as string, flag[2] as string) : isSecretValue(arg);
}

function urlWithoutCredentials(value: string, leftOut: string[]): string {
  const url = new URL(value);
  const removed: string[] = [];
  if (url.password) {
    url.password = '';
    removed.push('url password');
  }
  for (const [key, param] of [...url.searchParams]) {
    if (isSecret(key, param)) {
      url.searchParams.delete(key);
      removed.push(`url query ${key}`);
    }
  }
  leftOut.push(...removed);
  return removed.length > 0 ? url.href : value;
}

/** Reads an export, or says in one line why the file is not one. */
export function parseExport(textContent: string, file: string): ExportDocument {
  let data: unknown;
  try {
    data = JSON.parse(textContent);
  } catch (error) {
    throw new CodedError('invalid-input', `${file} is not JSON: ${(error as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || (data as { kind?: unknown }).kind !== EXPORT_KIND) {
    throw new CodedError('invalid-input', `${file} is not an mcp-roots export (written by \`mcp-roots export\`).`);
  }
  const parsed = exportDocumentSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CodedError('invalid-input', `${file} is not a valid mcp-roots export: ${issue?.path.join('.') || 'file'}: ${issue?.message}`);
  }
  return parsed.data;
}
