// Whether what is on screen is the host's truth right now. The browser shell can lose its socket;
// while it is down, the last state stays on screen for reference, but a badge that said "Connected"
// or "Reachable" would be a claim nobody can back: badges say "Unknown" instead.
import { useHostSelectorConnection } from './use-host-state.js';

export function useLive(): boolean {
  return useHostSelectorConnection() === 'open';
}
