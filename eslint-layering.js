// The layering rule, as an allowlist per folder (after VS Code's `local/code-layering`): each
// folder says which folders of ours and which kinds of packages it may import. A file in a folder
// the table does not name is an error, so a new folder is covered the day it appears.
import path from 'node:path';

const root = path.dirname(new URL(import.meta.url).pathname);

/** Node's built-in modules, with or without the `node:` prefix. */
const NODE = /^(node:|(fs|path|os|child_process|crypto|url|events|stream|http|https|net|util|readline|timers|string_decoder|worker_threads|module|tty|zlib|assert|buffer|process|dns|perf_hooks)(\/|$))/;

/**
 * Folder -> what it may import. `folders`: our folders (a file may always import its own folder);
 * `modules`: single files of other folders (repo path without extension -> why), for a folder that
 * needs a few modules of a room, not the room; `node`: Node's built-ins; `electron`: the electron
 * package; `react`: react and react-dom.
 * Other npm packages are allowed everywhere but `shared` (zod only) and the preload (none).
 */
export const LAYERS = {
  shared: { folders: [], node: false, electron: false, react: false, packages: ['zod'] },
  // electron/host in rooms (#21 item 5), bottom first. A room imports only the rooms below it;
  // the top of electron/host (roots-host.ts, the composition root, and contract-handlers.ts) sees
  // every room and no room sees it. A folder naming `electron/host` (below) may import its rooms.
  'electron/host/sandbox': { folders: ['shared'], node: true, electron: false, react: false },
  'electron/host/registry': { folders: ['shared'], node: true, electron: false, react: false },
  'electron/host/access': { folders: ['shared', 'electron/host/registry', 'electron/host/sandbox'], node: true, electron: false, react: false },
  'electron/host/launch': {
    folders: ['shared', 'electron/host/access', 'electron/host/registry', 'electron/host/sandbox'],
    node: true,
    electron: false,
    react: false,
  },
  'electron/host/connections': {
    folders: ['shared', 'electron/host/launch', 'electron/host/access', 'electron/host/registry', 'electron/host/sandbox'],
    node: true,
    electron: false,
    react: false,
  },
  'electron/host/status': { folders: ['shared', 'electron/host/access', 'electron/host/registry'], node: true, electron: false, react: false },
  'electron/host': {
    folders: [
      'shared',
      'electron/host/sandbox',
      'electron/host/registry',
      'electron/host/access',
      'electron/host/launch',
      'electron/host/connections',
      'electron/host/status',
    ],
    node: true,
    electron: false,
    react: false,
  },
  'electron/import': { folders: ['shared', 'electron/host'], node: true, electron: false, react: false },
  // `mcp-roots proxy` is a host of one server: it starts it as the app does (launch, sandbox), reads
  // the registry (one writer, many readers) and writes a status file the app reads. What a change
  // of folders does it asks the roots-change driver only (#30 item 14), never the policy or
  // the app's connections; it sees no host room whole, and not the composition root.
  'electron/proxy': {
    folders: ['shared'],
    modules: {
      'electron/host/connections/roots-change-driver': 'the port: what a change of folders or config does, decided and carried out as in the app',
      'electron/host/connections/connection-lifecycle': 'the same named states and transition table as the app (a subset)',
      'electron/host/connections/drain-wait': 'a restart waits for running calls as in the app, and says so in the same words',
      'electron/host/connections/first-roots-gate': "calls wait for the server's first roots/list, as in the app",
      'electron/host/connections/era-choice': 'which protocol era to speak to the server: the same choice as the app',
      'electron/host/connections/activity-events': 'the events the app emits too (a hold, a config change), worded by the one table',
      'electron/host/launch/stdio-start': "prepares the server's start (command, sandbox plan) as the app does",
      'electron/host/launch/connection-sandbox': "the start's sandbox: self-check, stderr, blocked paths",
      'electron/host/launch/stdio-transport-factory': 'builds the stdio transport to the server',
      'electron/host/launch/http-transport-factory': 'builds the HTTP transport to a remote server',
      'electron/host/launch/argument-injection': "${roots} in the server's command line",
      'electron/host/launch/server-failure': 'why a start failed, and whether it is held',
      'electron/host/launch/package-launch-line': "the package a first start prepares, named while it runs",
      'electron/host/registry/config-dir': 'where the registry lives',
      'electron/host/registry/keyring-codec': "opens the registry's sealed secrets",
      'electron/host/registry/secret-codec': "opens a transport's secrets",
      'electron/host/registry/server-view-source': "reads its server's view of the registry, written by the one writer",
      'electron/host/access/exposure-tracker': "its effective roots as the registry and the folders' access change",
      'electron/host/sandbox/sandbox-types': 'a sandbox setup failure, which holds the server',
      'electron/host/sandbox/private-network': "the private network's failures and their fix",
      'electron/host/sandbox/confine-stdio': "the confined process's types (its live grants)",
      'electron/host/sandbox/blocked-path': 'a path the sandbox refused, for the note beside a tool error',
      'electron/host/sandbox/start-marks': "its start's timing marks (MCP_ROOTS_START_MARKS), as the app's starts make them",
      'electron/host/status/proxy-status': 'the status file the app reads',
      'electron/host/status/status-file': 'writes that status file',
    },
    node: true,
    electron: false,
    react: false,
  },
  'electron/serve': { folders: ['shared', 'electron/host', 'electron/import'], node: true, electron: false, react: false },
  'electron/cli': { folders: ['shared', 'electron/host', 'electron/import', 'electron/proxy', 'electron/serve'], node: true, electron: false, react: false },
  'electron/main': {
    folders: ['shared', 'electron/host', 'electron/import', 'electron/proxy', 'electron/serve', 'electron/cli', 'electron/preload'],
    node: true,
    electron: true,
    react: false,
  },
  'electron/preload': { folders: ['shared'], node: false, electron: true, react: false, packages: [] },
  renderer: { folders: ['shared'], node: false, electron: false, react: true },
  // Tooling and tests see everything.
  tests: 'any',
  scripts: 'any',
  bin: 'any',
  build: 'any',
  '.': 'any',
};

/**
 * A back arrow (a folder that may import, through others, a folder that may import it) would let
 * two rooms lean on each other, and the picture the folders draw would lie: refuse the table.
 */
export function backArrows(layers) {
  const found = [];
  const edges = (layer) => {
    const rules = layers[layer];
    if (typeof rules !== 'object') return [];
    // A module allowed alone is an arrow to its folder all the same.
    const moduleLayers = Object.keys(rules.modules ?? {}).map((module) => layerOf(path.join(root, `${module}.ts`)));
    return [...new Set([...rules.folders, ...moduleLayers])];
  };
  const state = new Map();
  const visit = (layer, trail) => {
    if (state.get(layer) === 'done') return;
    if (state.get(layer) === 'open') {
      found.push([...trail.slice(trail.indexOf(layer)), layer].join(' -> '));
      return;
    }
    state.set(layer, 'open');
    for (const next of edges(layer)) visit(next, [...trail, layer]);
    state.set(layer, 'done');
  };
  for (const layer of Object.keys(layers)) visit(layer, []);
  return found;
}

const cycles = backArrows(LAYERS);
if (cycles.length > 0) throw new Error(`eslint-layering.js: back arrows between folders: ${cycles.join('; ')}`);

function layerOf(file) {
  const relative = path.relative(root, file).split(path.sep).join('/');
  if (!relative.includes('/')) return '.';
  const parts = relative.split('/');
  const [first, second, third] = parts;
  // electron/host/<room>/…: the room; electron/host/x.ts: the top of the host.
  if (first === 'electron' && second === 'host' && parts.length > 3) return `electron/host/${third}`;
  if (first === 'electron') return second !== undefined && parts.length > 2 ? `electron/${second}` : undefined;
  return first;
}

/** A file's repo path without its extension: `electron/host/connections/roots-change-driver`. */
function moduleOf(file) {
  return path.relative(root, file).split(path.sep).join('/').replace(/\.(js|ts|mjs|cjs|tsx)$/, '');
}

/** Whether `folders` lets a file import from `target`: a folder, or a room of a folder it names. */
const allows = (folders, target) => folders.some((folder) => target === folder || target.startsWith(`${folder}/`));

function describeImport(layer, rules, source, file) {
  if (source.startsWith('.')) {
    const target = layerOf(path.resolve(path.dirname(file), source));
    if (target === undefined) return `"${source}" leads outside any known folder.`;
    if (target === layer || allows(rules.folders, target)) return undefined;
    if (!rules.modules) return `${layer}/ may not import ${target}/ (it may import: ${[layer, ...rules.folders].join(', ')}).`;
    const module = moduleOf(path.resolve(path.dirname(file), source));
    if (Object.hasOwn(rules.modules, module)) return undefined;
    return `${layer}/ may not import ${target}/ (${module}): it may import ${[layer, ...rules.folders].join(', ')}, and of other folders only the modules listed for it in eslint-layering.js.`;
  }
  if (NODE.test(source)) return rules.node ? undefined : `${layer}/ may not import Node's "${source}".`;
  if (source === 'electron' || source.startsWith('electron/')) return rules.electron ? undefined : `Only electron/main and electron/preload import electron; not ${layer}/.`;
  if (/^react(-dom)?(\/|$)/.test(source)) return rules.react ? undefined : `Only the renderer imports React; not ${layer}/.`;
  if (rules.packages && !rules.packages.some((name) => source === name || source.startsWith(`${name}/`))) {
    return `${layer}/ may import only ${rules.packages.length ? rules.packages.join(', ') : 'no packages'}; not "${source}".`;
  }
  return undefined;
}

export const layeringRule = {
  meta: { type: 'problem', schema: [], docs: { description: 'Each folder imports only what its layer allows.' } },
  create(context) {
    const file = context.filename;
    const layer = layerOf(file);
    const rules = layer === undefined ? undefined : LAYERS[layer];
    if (rules === 'any') return {};
    const check = (node, source) => {
      if (!rules) return;
      if (typeof source !== 'string') return;
      const problem = describeImport(layer, rules, source, file);
      if (problem) context.report({ node, message: problem });
    };
    return {
      Program(node) {
        if (!rules) context.report({ node, message: `${path.relative(root, file)} is in a folder without a layering rule: add it to LAYERS in eslint-layering.js.` });
      },
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
