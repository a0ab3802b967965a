// Quitting stops every MCP server cleanly first: the first `before-quit` is held back until
// host.stop() settles (or a deadline passes), then the app exits.
import { app } from 'electron';
import type { RootsHost } from '../host/roots-host.js';

export interface QuitState {
  /** True from the first quit request on: window close handlers let the window go. */
  isQuitting(): boolean;
}

export function setupGracefulQuit(host: Pick<RootsHost, 'stop'>, options: { deadlineMs?: number } = {}): QuitState {
  const deadlineMs = options.deadlineMs ?? 5000;
  let phase: 'running' | 'stopping' = 'running';

  app.on('before-quit', (event) => {
    event.preventDefault();
    if (phase === 'stopping') return;
    phase = 'stopping';
    void stopWithin(host, deadlineMs).finally(() => app.exit(0));
  });

  // Ctrl+C in a terminal or a service manager's TERM: take the same clean path.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => app.quit());

  return { isQuitting: () => phase !== 'running' };
}

async function stopWithin(host: Pick<RootsHost, 'stop'>, deadlineMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`Servers did not stop within ${deadlineMs} ms; quitting anyway.`);
      resolve();
    }, deadlineMs);
  });
  try {
    await Promise.race([host.stop().catch((error: unknown) => console.error('Stopping servers failed:', error)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
