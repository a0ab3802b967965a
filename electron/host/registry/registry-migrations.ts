// Upgrades a registry file written by an earlier version, one schemaVersion step at a time.
// Each step takes the previous shape and returns the next; none of them may drop a root,
// a server or a grant.
import { CodedError } from '../../../shared/result.js';
import { DEFAULT_SETTINGS, SCHEMA_VERSION } from '../../../shared/registry-schema.js';

type Raw = Record<string, unknown>;

const steps: Record<number, (data: Raw) => Raw> = {
  // Version 0: a file written by hand (or by an early build) without schemaVersion. Fill in what
  // is missing and keep everything that is there.
  0: (data) => ({
    ...data,
    schemaVersion: 1,
    roots: Array.isArray(data.roots) ? data.roots : [],
    servers: Array.isArray(data.servers) ? data.servers : [],
    grants: isPlainObject(data.grants) ? data.grants : {},
    settings: { ...DEFAULT_SETTINGS, ...(isPlainObject(data.settings) ? data.settings : {}) },
  }),
  // Version 1 -> 2: a grant gains a mode (read-write, as every grant was until now); a server gains
  // the sandbox (on: confined where the OS allows), network (on) and consent (ask) settings.
  1: (data) => ({
    ...data,
    schemaVersion: 2,
    servers: Array.isArray(data.servers)
      ? data.servers.map((server: unknown) =>
          isPlainObject(server) ? { sandbox: true, network: true, askForFolders: true, ...server } : server,
        )
      : data.servers,
    grants: isPlainObject(data.grants)
      ? Object.fromEntries(
          Object.entries(data.grants).map(([serverId, rootIds]) => [
            serverId,
            Array.isArray(rootIds) ? Object.fromEntries(rootIds.map((rootId) => [String(rootId), 'read-write'])) : rootIds,
          ]),
        )
      : data.grants,
  }),
};

function isPlainObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function schemaVersionOf(data: unknown): number {
  if (!isPlainObject(data)) return 0;
  const version = data.schemaVersion;
  return typeof version === 'number' && Number.isInteger(version) && version >= 0 ? version : 0;
}

/** Returns the data at SCHEMA_VERSION. Throws for a file from a newer version: never downgrade. */
export function migrateRegistry(data: unknown): { data: unknown; migratedFrom?: number } {
  if (!isPlainObject(data)) throw new CodedError('store-failed', 'The registry file is not a JSON object.');
  const from = schemaVersionOf(data);
  if (from > SCHEMA_VERSION) {
    throw new CodedError(
      'store-failed',
      `The registry was written by a newer version (schema ${from}, this one reads ${SCHEMA_VERSION}).`,
    );
  }
  let current: Raw = data;
  for (let version = from; version < SCHEMA_VERSION; version++) {
    const step = steps[version];
    if (!step) throw new CodedError('internal', `No migration from schema ${version}.`);
    current = step(current);
  }
  return from === SCHEMA_VERSION ? { data: current } : { data: current, migratedFrom: from };
}
