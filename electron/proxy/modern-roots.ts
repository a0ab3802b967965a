// Roots on 2026-07-28 sessions: there is no roots/list request and no list_changed. The client
// declares its capabilities in every request's `_meta`, and a server that wants roots answers a
// call with `input_required`; the client retries the call with the answers. The proxy declares
// roots on the host's behalf and fulfils the roots part of those rounds from the registry.
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';
import type { WireRoot } from '../../shared/domain.js';
import { isObject, type JsonObject } from './json-rpc.js';

/** The same cap as the SDK's own driver: a server that keeps asking is not looping forever through us. */
export const MAX_INPUT_ROUNDS = 10;

/** The protocol version a modern request says it is governed by (the HTTP transport needs it as a header). */
export function modernProtocolVersion(params: JsonObject | undefined): string | undefined {
  const meta = params?._meta;
  const version = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
  return typeof version === 'string' ? version : undefined;
}

/** Adds `roots` to a modern request's per-request capabilities; undefined when the request has none. */
export function declareRoots(params: JsonObject | undefined): JsonObject | undefined {
  const meta = params?._meta;
  if (!isObject(meta) || !isObject(meta[CLIENT_CAPABILITIES_META_KEY])) return undefined;
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY] as JsonObject;
  if (isObject(capabilities.roots)) return undefined;
  return { ...params, _meta: { ...meta, [CLIENT_CAPABILITIES_META_KEY]: { ...capabilities, roots: {} } } };
}

/** Whether the host itself declared roots in a modern request. */
export function hostDeclaresRoots(params: JsonObject | undefined): boolean {
  const meta = params?._meta;
  return isObject(meta) && isObject(meta[CLIENT_CAPABILITIES_META_KEY]) && isObject((meta[CLIENT_CAPABILITIES_META_KEY] as JsonObject).roots);
}

export interface RootsRound {
  /** Keys of the embedded `roots/list` requests. */
  rootsKeys: string[];
  /** Keys of every other embedded request (elicitation, sampling): only the host can answer those. */
  otherKeys: string[];
  requestState?: string | undefined;
}

/** Reads an `input_required` result; undefined unless it asks for roots. */
export function rootsRound(result: JsonObject | undefined): RootsRound | undefined {
  if (!result || result.resultType !== 'input_required' || !isObject(result.inputRequests)) return undefined;
  const rootsKeys: string[] = [];
  const otherKeys: string[] = [];
  for (const [key, entry] of Object.entries(result.inputRequests)) {
    (isObject(entry) && entry.method === 'roots/list' ? rootsKeys : otherKeys).push(key);
  }
  if (rootsKeys.length === 0) return undefined;
  return { rootsKeys, otherKeys, requestState: typeof result.requestState === 'string' ? result.requestState : undefined };
}

export function rootsResponses(keys: readonly string[], roots: readonly WireRoot[]): JsonObject {
  return Object.fromEntries(keys.map((key) => [key, { roots: [...roots] }]));
}

/** The retry of a call: its original params, this round's answers, and the server's state echoed byte for byte. */
export function retryParams(original: JsonObject | undefined, responses: JsonObject, requestState: string | undefined): JsonObject {
  const { inputResponses: _previous, requestState: _previousState, ...rest } = original ?? {};
  return { ...rest, inputResponses: responses, ...(requestState !== undefined ? { requestState } : {}) };
}

/** The result the host sees when it must answer the rest of a round itself: the roots part is ours. */
export function withoutRootsRequests(result: JsonObject, rootsKeys: readonly string[]): JsonObject {
  const inputRequests = { ...(result.inputRequests as JsonObject) };
  for (const key of rootsKeys) delete inputRequests[key];
  return { ...result, inputRequests };
}

/** Adds our roots answers to the host's retry of a mixed round. */
export function addRootsResponses(params: JsonObject | undefined, responses: JsonObject): JsonObject {
  const existing = isObject(params?.inputResponses) ? params.inputResponses : {};
  return { ...params, inputResponses: { ...responses, ...existing } };
}
