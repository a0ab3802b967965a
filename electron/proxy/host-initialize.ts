// What the server gets of the host's 2025-era `initialize` under each roots policy: the registry's
// policy declares roots (the server asks even when the host has none to give), except for a server
// that takes its folders as arguments (like the app, the proxy does not also offer roots then).
import type { RootsPolicy } from './proxy-session.js';
import { isObject, type JsonObject } from './json-rpc.js';

export interface InitializeRewrite {
  params: JsonObject | undefined;
  hostOffersRoots: boolean;
  host: { name: string; version: string } | undefined;
}

export function initializeForServer(params: JsonObject | undefined, policy: RootsPolicy, injectsRoots: boolean): InitializeRewrite {
  const capabilities = isObject(params?.capabilities) ? params.capabilities : {};
  const clientInfo = params?.clientInfo;
  const noted = {
    hostOffersRoots: isObject(capabilities.roots),
    host: isObject(clientInfo) && typeof clientInfo.name === 'string' ? { name: clientInfo.name, version: String(clientInfo.version ?? '') } : undefined,
  };
  if (policy !== 'registry') return { params, ...noted };
  if (injectsRoots) {
    const { roots: _roots, ...rest } = capabilities;
    return { params: { ...params, capabilities: rest }, ...noted };
  }
  return { params: { ...params, capabilities: { ...capabilities, roots: { listChanged: true } } }, ...noted };
}
