// The renderer's one door to the host, the same for both shells. In Electron it adapts the
// preload's named API (`window.rootsManager`); in a browser (`mcp-roots serve`) it speaks
// fetch + one auto-reconnecting WebSocket. Either way a call resolves to a Result and never throws.
import type { Channel, ChannelInput, ChannelResult, EventName, EventPayloads } from '../../shared/contract.js';
import { splitChannel, type PreloadApi } from '../../shared/preload-api.js';
import { fail, type Result } from '../../shared/result.js';
import { API_CALL_PREFIX, API_EVENTS_PATH, API_SESSION_PATH, WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../shared/serve-wire.js';

export type ConnectionStatus = 'connecting' | 'open' | 'closed';

export interface HostClient {
  call<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<Result<ChannelResult<C>>>;
  /** Returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
  /**
   * Browser shell only (Electron IPC cannot drop). The listener is called at once with the current
   * status, then on every change. 'closed' means waiting to retry, or given up (bad token).
   */
  onConnection?(listener: (status: ConnectionStatus) => void): () => void;
  readonly shell: 'electron' | 'browser';
}

/** Where earlier versions kept the token; cleared on load (the session cookie replaced it). */
export const TOKEN_STORAGE_KEY = 'mcp-roots.serve-token';

// ---- the few browser features used, typed structurally so tests can inject real Node ones -------

export interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(code?: number, reason?: string): void;
}

export type SocketFactory = (url: string, protocols: string[]) => SocketLike;

export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export type FetchLike = (url: string, init: FetchInit) => Promise<{ status: number; json(): Promise<unknown> }>;

interface BrowserGlobals {
  rootsManager?: PreloadApi;
  location?: { origin: string; pathname: string; search: string; hash: string };
  history?: { replaceState(data: unknown, unused: string, url?: string): void };
  sessionStorage?: { removeItem(key: string): void };
  WebSocket?: new (url: string, protocols: string[]) => SocketLike;
  fetch?: FetchLike;
}

const globals = globalThis as unknown as BrowserGlobals;

let singleton: HostClient | undefined;

export function getHostClient(): HostClient {
  singleton ??= globals.rootsManager
    ? createElectronHostClient(globals.rootsManager)
    : createBrowserHostClient({ baseUrl: globals.location?.origin ?? '', token: takeServeToken(), exchangeForCookie: true });
  return singleton;
}

// ---- Electron ------------------------------------------------------------------------------------

type LooseApi = Record<string, Record<string, ((input: unknown) => Promise<unknown>) | undefined> | undefined>;
type LooseEvents = Record<string, ((listener: (payload: unknown) => void) => () => void) | undefined>;

export function createElectronHostClient(api: PreloadApi): HostClient {
  return {
    shell: 'electron',
    async call<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<Result<ChannelResult<C>>> {
      const [group, method] = splitChannel(channel);
      const invoke = (api as unknown as LooseApi)[group]?.[method];
      if (!invoke) return fail('internal', `The preload does not offer ${channel}.`);
      try {
        return (await invoke(input)) as Result<ChannelResult<C>>;
      } catch (error) {
        return fail('internal', messageOf(error));
      }
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
      const subscribe = (api.on as unknown as LooseEvents)[event];
      if (!subscribe) return () => {};
      return subscribe(listener as (payload: unknown) => void);
    },
  };
}

// ---- Browser -------------------------------------------------------------------------------------

/**
 * The token arrives in the URL fragment (`#token=…`: never sent to the server, never in a
 * Referer) and leaves the address bar at once, so it is not bookmarked, shared in a screenshot or
 * kept in history. It is not stored anywhere: the client exchanges it for an HttpOnly session
 * cookie, which a reload (or a page without the token) then uses.
 */
export function takeServeToken(g: BrowserGlobals = globals): string | undefined {
  try {
    g.sessionStorage?.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Storage disabled: nothing was kept there either.
  }
  const location = g.location;
  if (!location?.hash) return undefined;
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get('token');
  if (!token) return undefined;
  params.delete('token');
  const rest = params.toString();
  g.history?.replaceState(null, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  return token;
}

export interface BrowserHostClientOptions {
  /** The server's origin, e.g. http://127.0.0.1:8765 */
  baseUrl: string;
  token: string | undefined;
  /**
   * The page's own client: trade the token for the server's HttpOnly session cookie before
   * connecting, then forget it; with no token, rely on a cookie from an earlier load.
   */
  exchangeForCookie?: boolean;
  fetch?: FetchLike;
  createSocket?: SocketFactory;
  /** First retry delay; doubles per failed attempt up to maxRetryMs (with jitter). */
  initialRetryMs?: number;
  maxRetryMs?: number;
  /** Arms the reconnect timer and returns its cancel (tests pass one to see whether a retry was armed). */
  setRetryTimer?: (reconnect: () => void, delayMs: number) => () => void;
  /** A call with no answer after this long resolves to an 'internal' error. */
  callTimeoutMs?: number;
}

export interface BrowserHostClient extends HostClient {
  onConnection(listener: (status: ConnectionStatus) => void): () => void;
  readonly connectionStatus: ConnectionStatus;
  /** Closes the socket and stops reconnecting (tests; a page just unloads). */
  dispose(): void;
}

export function createBrowserHostClient(options: BrowserHostClientOptions): BrowserHostClient {
  const { baseUrl } = options;
  let token = options.token;
  const cookieMode = options.exchangeForCookie ?? false;
  const fetchImpl: FetchLike | undefined = options.fetch ?? globals.fetch?.bind(globalThis);
  const createSocket: SocketFactory =
    options.createSocket ??
    ((url, protocols) => {
      if (!globals.WebSocket) throw new Error('This browser has no WebSocket.');
      return new globals.WebSocket(url, protocols);
    });
  const initialRetryMs = options.initialRetryMs ?? 250;
  const maxRetryMs = options.maxRetryMs ?? 10_000;
  const callTimeoutMs = options.callTimeoutMs ?? 120_000;
  const setRetryTimer =
    options.setRetryTimer ??
    ((reconnect: () => void, delayMs: number) => {
      const timer = setTimeout(reconnect, delayMs);
      return () => clearTimeout(timer);
    });

  const eventListeners = new Map<EventName, Set<(payload: never) => void>>();
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  let status: ConnectionStatus = 'connecting';
  let socket: SocketLike | undefined;
  let cancelRetry: (() => void) | undefined;
  let attempt = 0;
  let disposed = false;

  const setStatus = (next: ConnectionStatus): void => {
    if (next === status) return;
    status = next;
    for (const listener of statusListeners) safely(() => listener(next));
  };

  const emit = (event: EventName, payload: unknown): void => {
    for (const listener of eventListeners.get(event) ?? []) safely(() => (listener as (payload: unknown) => void)(payload));
  };

  async function post(path: string, body: string): Promise<{ status: number; body: unknown }> {
    if (!fetchImpl) throw new Error('This browser has no fetch.');
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), callTimeoutMs);
    try {
      const response = await fetchImpl(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token !== undefined ? { Authorization: `Bearer ${token}` } : {}) },
        body,
        signal: controller.signal,
      });
      return { status: response.status, body: await response.json().catch(() => undefined) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Asks whether the token is still good, so a dead token stops the retry loop. */
  async function tokenRejected(): Promise<boolean> {
    try {
      return (await post(API_EVENTS_PATH, '')).status === 401;
    } catch {
      return false;
    }
  }

  function connect(): void {
    cancelRetry = undefined;
    if (disposed) return;
    setStatus('connecting');
    const wsUrl = `${baseUrl.replace(/^http/, 'ws')}${API_EVENTS_PATH}`;
    let opened = false;
    let current: SocketLike;
    try {
      current = createSocket(wsUrl, token !== undefined ? [WS_PROTOCOL, `${WS_TOKEN_PREFIX}${token}`] : [WS_PROTOCOL]);
    } catch {
      return scheduleRetry(false);
    }
    socket = current;
    current.onopen = () => {
      opened = true;
      attempt = 0;
      setStatus('open');
    };
    current.onmessage = ({ data }) => {
      if (typeof data !== 'string') return;
      let message: { event?: unknown; payload?: unknown };
      try {
        message = JSON.parse(data) as typeof message;
      } catch {
        return;
      }
      if (message.event === 'state' || message.event === 'activity') emit(message.event, message.payload);
    };
    current.onerror = () => {};
    current.onclose = () => {
      if (socket !== current) return;
      socket = undefined;
      scheduleRetry(opened);
    };
  }

  function scheduleRetry(wasOpen: boolean): void {
    if (disposed) return;
    setStatus('closed');
    const delay = Math.min(maxRetryMs, initialRetryMs * 2 ** attempt) * (0.5 + Math.random() / 2);
    attempt++;
    // A socket refused before it ever opened may mean the server restarted with a new token.
    void (wasOpen ? Promise.resolve(false) : tokenRejected()).then((rejected) => {
      if (disposed || rejected || cancelRetry) return;
      cancelRetry = setRetryTimer(connect, delay);
    });
  }

  /** Trades the token for the session cookie; a refused token stops here, like a refused socket. */
  async function exchange(): Promise<void> {
    let status: number;
    try {
      status = (await post(API_SESSION_PATH, '')).status;
    } catch {
      // Unreachable now: keep the token and let the socket's retries find the server.
      return connect();
    }
    if (status === 401) return setStatus('closed');
    // From here on the cookie speaks for the page; the token is forgotten.
    if (status === 204) token = undefined;
    connect();
  }

  if (cookieMode && token) void exchange();
  else if (token || cookieMode) connect();
  else status = 'closed';

  return {
    shell: 'browser',
    get connectionStatus() {
      return status;
    },
    async call<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<Result<ChannelResult<C>>> {
      if (!token && !cookieMode) return fail('unauthorized', 'No access token: open the URL that `mcp-roots serve` printed.');
      try {
        const reply = await post(`${API_CALL_PREFIX}${encodeURIComponent(channel)}`, JSON.stringify(input ?? {}));
        if (isResult(reply.body)) return reply.body as Result<ChannelResult<C>>;
        return fail('internal', `The server answered HTTP ${reply.status} without a result.`);
      } catch (error) {
        return fail('internal', `The server cannot be reached: ${messageOf(error)}`);
      }
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
      let set = eventListeners.get(event);
      if (!set) eventListeners.set(event, (set = new Set()));
      const entry = listener as (payload: never) => void;
      set.add(entry);
      return () => void set.delete(entry);
    },
    onConnection(listener) {
      statusListeners.add(listener);
      safely(() => listener(status));
      return () => void statusListeners.delete(listener);
    },
    dispose() {
      disposed = true;
      cancelRetry?.();
      cancelRetry = undefined;
      const current = socket;
      socket = undefined;
      current?.close(1000);
      setStatus('closed');
    },
  };
}

function isResult(value: unknown): value is Result<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  const { ok } = value as { ok: unknown };
  if (ok === true) return 'value' in value;
  if (ok !== false || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One listener's bug must not stop the others from hearing the event. */
function safely(run: () => void): void {
  try {
    run();
  } catch (error) {
    console.error(error);
  }
}
