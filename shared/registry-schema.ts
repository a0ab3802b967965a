// The persisted registry's shape, written once in zod. The JSON schema the store validates with is
// derived from it (z.toJSONSchema), so the two can never drift apart.
import { z } from 'zod';
import { RECORD_BOUNDS, recordBoundProblem, type RecordBoundName } from './file-record.js';
import { MAX_ALLOWED_HOSTS, parseHostPattern } from './host-patterns.js';
import { PROTECTED_NAMES } from './protected-names.js';
import { LIMIT_NAMES, LIMIT_RANGES, type ServerLimitName } from './server-limits.js';

export const SCHEMA_VERSION = 2;

// Ids are keys of plain objects in the file (grants): names the object model gives a meaning to are refused.
const id = z
  .string()
  .min(1)
  .max(128)
  .regex(/^(?!(?:__proto__|constructor|prototype)$)/, 'is a reserved name');
const headerOrEnvMap = z.record(z.string().min(1).max(512), z.string().max(65_536));

export const stdioTransportSchema = z.object({
  type: z.literal('stdio'),
  command: z.string().min(1).max(4096),
  args: z.array(z.string().max(65_536)).max(1024),
  env: headerOrEnvMap,
  cwd: z.string().min(1).max(4096).optional(),
});

export const httpTransportSchema = z.object({
  type: z.enum(['http', 'sse']),
  url: z
    .string()
    .max(8192)
    .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an http(s) URL'),
  headers: headerOrEnvMap,
});

export const transportSchema = z.discriminatedUnion('type', [stdioTransportSchema, httpTransportSchema]);

export const rootRecordSchema = z.object({
  id,
  path: z.string().min(1).max(4096),
  canonicalPath: z.string().min(1).max(4096),
  name: z.string().min(1).max(256),
  addedAt: z.string(),
});

export const pathMappingSchema = z.object({
  hostPath: z.string().min(1).max(4096),
  serverPath: z.string().min(1).max(4096),
});

/** A limit's value: a whole number within its bounds (server-limits.ts), so the file's JSON schema holds them too. */
const limitValue = (name: ServerLimitName) => {
  const { min, max } = LIMIT_RANGES[name];
  const words = `${name} must be a whole number between ${min} and ${max}`;
  return z.number().int(words).min(min, words).max(max, words);
};

export const serverLimitsSchema = z
  .object(Object.fromEntries(LIMIT_NAMES.map((name) => [name, limitValue(name).optional()])) as Record<ServerLimitName, z.ZodOptional<z.ZodNumber>>)
  .strict();

/** A grant's opted-in protected names: known names only (an enum, so the file's JSON schema holds it too). */
const writableNamesSchema = z
  .array(z.enum(PROTECTED_NAMES as [string, ...string[]], { error: (issue) => `not a protected name: ${String(issue.input)}` }))
  .max(PROTECTED_NAMES.length);

/** Ports of this computer's loopback a network-on server may reach: each a whole port, listed once, at most 64. */
export const localPortsSchema = z
  .array(z.number().int('a local port is a whole number between 1 and 65535').min(1, 'a local port is a whole number between 1 and 65535').max(65535, 'a local port is a whole number between 1 and 65535'))
  .max(64, 'at most 64 local ports per server')
  .refine((ports) => new Set(ports).size === ports.length, 'each local port is listed once');

/** The hosts a network-on server may reach (host-patterns.ts); absent: any host. Each entry as parseHostPattern keeps it. */
export const allowHostsSchema = z
  .array(z.string())
  .max(MAX_ALLOWED_HOSTS, `at most ${MAX_ALLOWED_HOSTS} allowed hosts per server`)
  .superRefine((entries, context) => {
    for (const entry of entries) {
      const parsed = parseHostPattern(entry);
      if (!parsed.ok) context.addIssue({ code: 'custom', message: parsed.error });
      else if (parsed.pattern.text !== entry) context.addIssue({ code: 'custom', message: `"${entry}" is written "${parsed.pattern.text}"` });
    }
    if (new Set(entries).size !== entries.length) context.addIssue({ code: 'custom', message: 'each allowed host is listed once' });
  });

export const serverRecordSchema = z.object({
  id,
  name: z.string().min(1).max(256),
  transport: transportSchema,
  enabled: z.boolean(),
  sharing: z.boolean(),
  sandbox: z.boolean(),
  network: z.boolean(),
  ownSandboxes: z.boolean().optional(),
  allowLocal: localPortsSchema.optional(),
  allowHosts: allowHostsSchema.optional(),
  askForFolders: z.boolean(),
  pathMap: z.array(pathMappingSchema).max(256).optional(),
  limits: serverLimitsSchema.optional(),
  writableByChoice: z.record(id, writableNamesSchema).optional(),
  addedAt: z.string(),
});

export const grantModeSchema = z.enum(['read-write', 'read-only']);

/** A bound of the file record: a whole number within its range (file-record.ts), so the file's JSON schema holds it too. */
const recordBound = (name: RecordBoundName) => {
  const { min, max } = RECORD_BOUNDS[name];
  const words = recordBoundProblem(name, Number.NaN) as string;
  return z.number(words).int(words).min(min, words).max(max, words);
};

export const settingsSchema = z.object({
  locale: z.enum(['system', 'en', 'zh-CN', 'de']),
  theme: z.enum(['system', 'light', 'dark']),
  // Absent: the default. Optional, so a registry written before them needs no migration.
  recordEntries: recordBound('recordEntries').optional(),
  recordDays: recordBound('recordDays').optional(),
});

export const registrySchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  roots: z.array(rootRecordSchema),
  servers: z.array(serverRecordSchema),
  grants: z.record(id, z.record(id, grantModeSchema)),
  settings: settingsSchema,
});

export const DEFAULT_SETTINGS = { locale: 'system', theme: 'system' } as const;

export function emptyRegistry(): z.infer<typeof registrySchema> {
  return { schemaVersion: SCHEMA_VERSION, roots: [], servers: [], grants: {}, settings: { ...DEFAULT_SETTINGS } };
}
