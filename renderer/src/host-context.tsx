// One client and one store per window, handed down by context so tests can inject a fake host.
import { createContext, useContext, type ReactNode } from 'react';
import type { HostClient } from './host-client.js';
import type { HostStore } from './host-store.js';

export interface HostContextValue {
  client: HostClient;
  store: HostStore;
}

const HostContext = createContext<HostContextValue | undefined>(undefined);

export function HostProvider({ value, children }: { value: HostContextValue; children: ReactNode }) {
  return <HostContext.Provider value={value}>{children}</HostContext.Provider>;
}

export function useHost(): HostContextValue {
  const value = useContext(HostContext);
  if (!value) throw new Error('useHost() outside <HostProvider>.');
  return value;
}
