// The registry as one proxy follows it: only its server (its record, its grants, their roots),
// read from that server's view (server-views.ts) whenever the views describe the config.json on
// disk, and from config.json itself otherwise. A reader: it never writes nor waits for the lock.
//
// What a change costs a proxy it does not concern: a stat of config.json and a read of the small
// index (only when the index changed), no parse of the registry. What a hand edit of config.json,
// an older writer or a writer that died before the index costs: after a short grace (the writer is
// normally a millisecond from the index), one read of config.json, as before the views existed.
// The whole-file reader (RegistryModel, with its ajv schema) is loaded only on that path.
//
// The keychain is opened only once a view holds a sealed value (and always on the whole-file path,
// where every server's secrets are opened): asking it costs a proxy's start 80-130 ms of waiting
// and 20-25 ms of CPU, for nothing when its server has no stored secret.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { Registry, ServerId } from '../../../shared/domain.js';
import { SCHEMA_VERSION } from '../../../shared/registry-schema.js';
import { isLockHeld } from './file-lock.js';
import { FolderWatch } from './folder-watch.js';
import { CONFIG_FILE, sameSignature, signatureOf, type FileSignature } from './registry-file.js';
import type { RegistryChange, RegistryModel } from './registry-model.js';
import { findServerIn, findServerRef } from './registry-refs.js';
import { RegistrySecrets } from './registry-secrets.js';
import type { StoreNotice } from './registry-store.js';
import { hasSealedSecrets, type SecretCodec } from './secret-codec.js';
import { readServerView, readViewsIndex, registryOfView, viewOf, VIEWS_INDEX_FILE, type ServerView, type ViewsIndex } from './server-views.js';

export interface ServerViewSourceOptions {
  configDir: string;
  /** The server's name or id, as a host config names it. */
  server: string;
  /** How often the files are looked at without a watch event. */
  pollMs?: number;
  /** How long config.json may be newer than the views before it is read itself. */
  graceMs?: number;
  /**
   * Opens the codec for the server's sealed secrets (a view holds them sealed, as config.json does):
   * called once, the first time a view holds a sealed value or config.json itself is read.
   */
  secrets?: (() => Promise<SecretCodec>) | undefined;
}

const DEFAULT_GRACE_MS = 500;
/**
 * The one writer holds the registry lock from config.json to the index, so while a live writer
 * holds it the index is on its way: a proxy waits for it rather than reading the whole file (on a
 * loaded machine a writer can be off the CPU for longer than the grace, and twenty proxies then
 * each read 2 MB for an edit that concerns one). Not forever: a writer that hangs holding the lock
 * must not keep a proxy on an older, maybe wider, grant.
 */
const MAX_WRITER_WAIT_MS = 5000;

export class ServerViewSource extends EventEmitter<{ change: [RegistryChange]; notice: [StoreNotice] }> {
  private registry: Registry | undefined;
  private id: ServerId | undefined;
  /** The hash of the view last published; undefined when it came from config.json itself. */
  private hash: string | undefined;
  /** The config.json version last followed (through a view or by reading it). */
  private seen: FileSignature | undefined;
  private index: { index: ViewsIndex; signature: FileSignature } | undefined;
  private readonly watch: FolderWatch;
  private whole: RegistryModel | undefined;
  private reading: Promise<void> | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  /** Since when config.json has been newer than the views (undefined while they describe it). */
  private staleSince: number | undefined;
  private closed = false;
  private readonly configPath: string;
  private readonly lockPath: string;
  private readonly graceMs: number;
  /** Set once the codec is open. */
  private secrets: RegistrySecrets | undefined;
  private codec: Promise<SecretCodec | undefined> | undefined;

  constructor(private readonly options: ServerViewSourceOptions) {
    super();
    this.configPath = path.join(options.configDir, CONFIG_FILE);
    this.lockPath = `${this.configPath}.lock`;
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.watch = new FolderWatch(options.configDir, { names: [CONFIG_FILE, VIEWS_INDEX_FILE], pollMs: options.pollMs ?? 2000 });
    const look = () => this.look(false);
    this.watch.on('change', look);
    this.watch.on('poll', look);
  }

  /** The registry as this proxy sees it: its one server (none once removed), its grants, their roots. */
  get current(): Registry {
    if (!this.registry) throw new Error('The registry has not been loaded.');
    return this.registry;
  }

  /**
   * Finds the server (by name or id, like the CLI) and loads its view; then follows changes.
   * Throws a CodedError when no server (or several) matches. Returns notices about config.json.
   */
  async open(): Promise<StoreNotice[]> {
    const config = signatureOf(this.configPath);
    const index = this.freshIndex(config);
    let notices: StoreNotice[];
    const entry = index ? findServerIn(index.servers, this.options.server) : undefined;
    const read = entry ? readServerView(this.options.configDir, entry.id) : undefined;
    if (entry && read?.hash === entry.hash) {
      this.id = entry.id;
      if (this.needsCodec(read.view)) await this.openCodec();
      notices = this.publishView(read.view, read.hash, 'load');
      this.seen = config;
    } else {
      const opened = await this.openWhole();
      notices = opened.notices;
      const whole = opened.model.current;
      this.id = findServerRef(whole, this.options.server).id;
      this.publishView(viewOf(whole, this.id), undefined, 'load');
      this.seen = config;
    }
    this.watch.start();
    return notices;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watch.stop();
    clearTimeout(this.graceTimer);
    await this.reading;
    await this.whole?.close();
  }

  /** Follows the files; `readWhole`: config.json is read itself if the views still do not describe it. */
  private look(readWhole: boolean): void {
    if (this.closed || !this.registry || this.reading) return;
    const config = signatureOf(this.configPath);
    // No file: keep what we have (the one writer puts it back).
    if (!config) return;
    const index = this.freshIndex(config);
    if (index) {
      const entry = index.servers.find((candidate) => candidate.id === this.id);
      if (!entry) {
        this.settled(config);
        if (this.registry.servers.length > 0) this.publishView(undefined, undefined, 'external');
        return;
      }
      if (entry.hash === this.hash) {
        this.settled(config);
        return;
      }
      const read = readServerView(this.options.configDir, entry.id);
      if (read?.hash === entry.hash && this.needsCodec(read.view)) {
        // Published once the codec is open: the look after it reads the view again.
        this.setAside(this.openCodec());
        return;
      }
      if (read?.hash === entry.hash) {
        this.settled(config);
        this.publishView(read.view, read.hash, 'external');
        return;
      }
      // The view is not the one the index names: a writer is between the two, or it is damaged.
    } else if (sameSignature(config, this.seen)) {
      this.staleSince = undefined;
      return;
    }
    this.staleSince ??= Date.now();
    const writerAtWork = isLockHeld(this.lockPath) && Date.now() - this.staleSince < MAX_WRITER_WAIT_MS;
    if (readWhole && !writerAtWork) this.readWhole(config);
    else this.startGrace();
  }

  /** This version of config.json has been followed (through its view, or by reading it). */
  private settled(config: FileSignature): void {
    this.seen = config;
    this.staleSince = undefined;
  }

  private startGrace(): void {
    if (this.graceTimer) return;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      this.look(true);
    }, this.graceMs);
    this.graceTimer.unref();
  }

  /** The index if it describes this version of config.json (and this schema), else undefined. */
  private freshIndex(config: FileSignature | undefined): ViewsIndex | undefined {
    const signature = signatureOf(path.join(this.options.configDir, VIEWS_INDEX_FILE));
    if (!signature) {
      this.index = undefined;
    } else if (!this.index || !sameSignature(signature, this.index.signature)) {
      this.index = readViewsIndex(this.options.configDir);
    }
    const index = this.index?.index;
    return index && config && index.schemaVersion === SCHEMA_VERSION && sameSignature(index.source, config) ? index : undefined;
  }

  /** config.json itself, through the same follower the proxy used before there were views. */
  private async openWhole(): Promise<{ model: RegistryModel; notices: StoreNotice[] }> {
    const [{ RegistryModel }, secrets] = await Promise.all([import('./registry-model.js'), this.openCodec()]);
    const model = new RegistryModel({ configDir: this.options.configDir, role: 'follower', secrets });
    model.on('notice', (notice) => this.emit('notice', notice));
    model.on('change', ({ registry, origin }) => {
      if (this.id !== undefined && origin !== 'load') this.publishView(viewOf(registry, this.id), undefined, 'external');
    });
    this.whole = model;
    return { model, notices: await model.open() };
  }

  private readWhole(config: FileSignature): void {
    this.setAside(
      (async () => {
        if (!this.whole) {
          const { model, notices } = await this.openWhole();
          for (const notice of notices) this.emit('notice', notice);
          if (this.id !== undefined) this.publishView(viewOf(model.current, this.id), undefined, 'external');
        } else {
          this.whole.follow();
          await this.whole.drained();
        }
        // Whatever came of that version (published, or reported as invalid), it has been followed.
        this.settled(config);
      })(),
    );
  }

  /** Looks are set aside until `work` is done; then one looks again at what changed meanwhile. */
  private setAside(work: Promise<unknown>): void {
    this.reading = work
      .then(() => undefined)
      .finally(() => {
        this.reading = undefined;
        this.look(false);
      });
  }

  /** A view read from disk that holds a sealed value, while the codec is not open yet. */
  private needsCodec(view: ServerView): boolean {
    return this.options.secrets !== undefined && this.secrets === undefined && hasSealedSecrets(view.server.transport);
  }

  /** Opens the codec once (openRegistryCodec never rejects: an unavailable codec says why, and the values stay sealed). */
  private openCodec(): Promise<SecretCodec | undefined> {
    this.codec ??= (async () => {
      const codec = await this.options.secrets?.();
      if (codec) this.secrets = new RegistrySecrets(codec);
      return codec;
    })();
    return this.codec;
  }

  /**
   * `view` as read from disk (secrets sealed) or cut from the whole model (secrets already opened).
   * Returns the notices of a 'load' (open() returns them); later ones are emitted.
   */
  private publishView(view: ServerView | undefined, hash: string | undefined, origin: RegistryChange['origin']): StoreNotice[] {
    const previous = this.registry;
    let registry = registryOfView(view);
    let notices: StoreNotice[] = [];
    if (hash !== undefined && this.secrets) {
      // Only a view read from disk: the whole model opened its own. Unreadable secrets stay sealed,
      // said once per view, and that server refuses to start (SealedSecretError), as in the app.
      ({ registry, notices } = this.secrets.open(registry));
      if (origin !== 'load') for (const notice of notices) this.emit('notice', notice);
    }
    this.registry = registry;
    this.hash = hash;
    // A proxy never writes and words no change by its maker: anything outside it is 'other'.
    this.emit('change', { registry: this.registry, previous, origin, source: origin === 'external' ? 'other' : 'this-app' });
    return notices;
  }
}
