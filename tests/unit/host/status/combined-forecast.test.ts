// The matrix's ↻ for a server from everything that runs it: this process and each proxy session.
import { describe, expect, it } from 'vitest';
import { combinedForecast } from '../../../../electron/host/status/combined-forecast.js';
import type { ChangeForecast, ProxiedSession } from '../../../../shared/domain.js';

const session = (changeRestarts: ChangeForecast | undefined, state: ProxiedSession['state'] = 'ready'): ProxiedSession => ({
  serverId: 'server-1',
  proxyPid: 4242,
  state,
  rootsPolicy: 'registry',
  hostOffersRoots: false,
  rootsRequestCount: 1,
  listChangedCount: 0,
  startedAt: 1,
  updatedAt: 2,
  changeRestarts,
});

describe('combinedForecast', () => {
  it('is this process’s own where no proxy runs the server, and nothing where nothing runs it', () => {
    const own: ChangeForecast = { grant: 'mounts' };
    expect(combinedForecast(own, [])).toBe(own);
    expect(combinedForecast(undefined, [])).toBeUndefined();
  });

  it('a server only a proxy runs gets the proxy’s forecast', () => {
    expect(combinedForecast(undefined, [session({ grant: 'arguments', revoke: 'arguments' })])).toEqual({ grant: 'arguments', revoke: 'arguments' });
    expect(combinedForecast(undefined, [session({})])).toEqual({ grant: undefined, revoke: undefined });
  });

  it('says a restart where any process would restart, this process’s reason first', () => {
    expect(combinedForecast({}, [session({ grant: 'reask' })])).toEqual({ grant: 'reask', revoke: undefined });
    expect(combinedForecast({ revoke: 'forget' }, [session({ grant: 'reask', revoke: 'mounts' })])).toEqual({ grant: 'reask', revoke: 'forget' });
    expect(combinedForecast(undefined, [session({ grant: 'mounts' }), session({ grant: 'arguments' })])).toEqual({ grant: 'mounts', revoke: undefined });
  });

  it('a retry (a failed one is started, nothing running is cut) counts only where nothing is restarted', () => {
    expect(combinedForecast({ grant: 'retry' }, [session({ grant: 'mounts' })])).toEqual({ grant: 'mounts', revoke: undefined });
    expect(combinedForecast({ grant: 'retry' }, [session({})])).toEqual({ grant: 'retry', revoke: undefined });
  });

  it('leaves out sessions that stopped, and those that forecast nothing (the host’s own roots passed on, an older proxy)', () => {
    expect(combinedForecast(undefined, [session({ grant: 'mounts' }, 'stopped')])).toBeUndefined();
    expect(combinedForecast({}, [session(undefined)])).toEqual({});
  });
});
