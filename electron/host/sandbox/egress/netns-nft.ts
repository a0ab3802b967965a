// nft in a confined server's network namespace: the sandbox helper enters the namespace's keeper
// (its user and network namespaces) and runs nft there with CAP_NET_ADMIN alone (native/
// sandbox-helper/netns.c). An unprivileged user's nsenter cannot: its capabilities go at exec.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Where nft is: Debian keeps it in /usr/sbin, which a user's PATH often lacks. */
export function findNft(pathEnv = process.env.PATH): string | undefined {
  const dirs = [...(pathEnv ?? '').split(path.delimiter).filter((dir) => path.isAbsolute(dir)), '/usr/sbin', '/sbin', '/usr/bin'];
  for (const dir of dirs) {
    const candidate = path.join(dir, 'nft');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

export interface NetnsNft {
  helper: string;
  nft: string;
  /** The keeper: the process whose namespaces are the server's (pasta joined the same). */
  pid: number;
}

/** Runs `nft ARGS` in the namespace, `input` on its stdin; resolves to its stdout, rejects with its own words. */
export function runNft(target: NetnsNft, args: readonly string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(target.helper, ['netns-exec', String(target.pid), '--', target.nft, ...args], { encoding: 'utf8', timeout: 15_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`nft in the server's network namespace failed: ${(stderr || error.message).trim().split('\n').slice(0, 3).join(' ')}`));
      else resolve(stdout);
    });
    // nft may be gone before it reads (the namespace ended with its server): its exit says why, not EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? '');
  });
}
