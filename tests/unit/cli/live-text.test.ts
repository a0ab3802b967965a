// The live state of a server as `status` prints it: the lifecycle said only when it adds something.
import { describe, expect, it } from 'vitest';
import { liveText } from '../../../electron/cli/format.js';
import type { ServerLiveReport } from '../../../electron/cli/registry-view.js';

const live = (patch: Partial<ServerLiveReport>): ServerLiveReport => ({ state: 'connected', ...patch }) as ServerLiveReport;

describe('live state words', () => {
  it('says a state once where the lifecycle says the same (#30 item 5), and both where it adds something', () => {
    expect(liveText(live({ state: 'connecting', lifecycle: 'connecting' } as Partial<ServerLiveReport>))).toBe('connecting');
    expect(liveText(live({ state: 'connected', lifecycle: 'ready' } as Partial<ServerLiveReport>))).toBe('connected');
    expect(liveText(live({ state: 'connected', lifecycle: 'restarting' } as Partial<ServerLiveReport>))).toBe('connected, restarting');
  });
});
