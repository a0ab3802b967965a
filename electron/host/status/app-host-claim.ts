// One app host per registry. The desktop app and `mcp-roots serve` each run every enabled server;
// two of them on one registry ran every server twice, silently. Whichever starts first claims
// <configDir>/running/app-host.claim (created exclusively, so two starting at once cannot both win);
// the other is told who holds it (kind, pid, URL) and does not start. A claim whose process is gone
// is taken over. The status files beside it (app-status.ts) say what a host does; this says who is
// the one.
import { writeFileSync as atomicWriteFileSync } from 'atomically';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { RUNNING_DIR, type AppKind } from './app-status.js';
import { isProcessAlive } from '../registry/process-alive.js';

const holderSchema = z.object({
  pid: z.number().int().positive(),
  kind: z.enum(['app', 'serve']),
  startedAt: z.number(),
  /** Where a `serve` can be reached (its origin: the token stays in its own terminal). */
  url: z.string().optional(),
});

export type AppHostHolder = z.infer<typeof holderSchema>;

export interface AppHostClaim {
  /** Records where this host can be reached, for whoever is refused next. */
  setUrl(url: string): void;
  /** Lets go of the claim (only if it is still ours). */
  release(): void;
}

export type ClaimResult = { ok: true; claim: AppHostClaim } | { ok: false; holder: AppHostHolder };

export function appHostClaimFile(configDir: string): string {
  return path.join(configDir, RUNNING_DIR, 'app-host.claim');
}

/** Claims the registry for this process, or says who holds it. */
export function claimAppHost(configDir: string, kind: AppKind, pid: number = process.pid): ClaimResult {
  const file = appHostClaimFile(configDir);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const mine: AppHostHolder = { pid, kind, startedAt: Date.now() };
  // Two rounds: the second after removing a dead holder's claim.
  for (let round = 0; round < 2; round++) {
    try {
      fs.writeFileSync(file, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      return { ok: true, claim: ownClaim(file, mine) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    if (holder && holder.pid !== pid && isProcessAlive(holder.pid)) return { ok: false, holder };
    // Dead, unreadable (a write cut short) or our own pid from an earlier life: not a holder.
    fs.rmSync(file, { force: true });
  }
  const holder = readHolder(file);
  if (holder) return { ok: false, holder };
  throw new Error(`Could not claim ${file}.`);
}

/** Who holds the registry now, if a live process does. */
export function appHostHolder(configDir: string): AppHostHolder | undefined {
  const holder = readHolder(appHostClaimFile(configDir));
  return holder && isProcessAlive(holder.pid) ? holder : undefined;
}

function ownClaim(file: string, mine: AppHostHolder): AppHostClaim {
  let current = mine;
  const stillOurs = () => readHolder(file)?.pid === mine.pid;
  return {
    setUrl(url) {
      if (!stillOurs()) return;
      current = { ...current, url };
      atomicWriteFileSync(file, JSON.stringify(current), { mode: 0o600 });
    },
    release() {
      if (stillOurs()) fs.rmSync(file, { force: true });
    },
  };
}

function readHolder(file: string): AppHostHolder | undefined {
  try {
    return holderSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}

/** One line for a person: who runs the servers of this registry already. */
export function describeHolder(holder: AppHostHolder): string {
  const who = holder.kind === 'app' ? `the desktop app (pid ${holder.pid})` : `\`mcp-roots serve\` (pid ${holder.pid})`;
  return holder.url ? `${who} at ${holder.url}` : who;
}
