// The desktop app's RootsHost: the registry is persisted through electron-store (same file format
// as the CLI's conf, so both edit one config.json).
import ElectronStore from 'electron-store';
import { RootsHost } from '../host/roots-host.js';
import type { ConfFactory } from '../host/registry-store.js';

// electron-store names the file with `name` where conf uses `configName`.
const electronStoreConf: ConfFactory = ({ configName, ...options }) =>
  new ElectronStore({ ...options, ...(configName ? { name: configName } : {}) });

export function createAppHost(configDir: string): RootsHost {
  return new RootsHost({ configDir, createConf: electronStoreConf });
}
