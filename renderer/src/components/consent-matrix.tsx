// Who sees what: folders down, servers across, one checkbox per grant. Rows are virtualized and
// memoized so 1,000 folders x 50 servers stays interactive; the grid is one Tab stop with arrow keys.
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type FocusEvent, type KeyboardEvent } from 'react';
import { NEW_GRANT_MODE, type GrantMode, type RootView, type ServerView } from '../../../shared/domain.js';
import type { HostError } from '../../../shared/result.js';
import { callSafely } from '../call-safely.js';
import { useHost } from '../host-context.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useFirstPaintDone } from '../use-first-paint.js';
import { useElementHeight } from '../use-element-height.js';
import { useGrantIndex } from '../use-host-state.js';
import { grantKey, usePendingGrants } from '../use-pending-grants.js';
import { useShortWindow } from '../use-short-window.js';
import { useVirtualRows } from '../use-virtual-rows.js';
import { InlineError } from './inline-error.js';
import { MatrixHeader } from './matrix-header.js';
import { MatrixLegend } from './matrix-legend.js';
import { HEADER_ROWS, moveCell, parseCellKey, type CellPosition } from './matrix-navigation.js';
import { MatrixRow } from './matrix-row.js';
import { OptInDialog } from './opt-in-dialog.js';
import { MatrixToolbar } from './matrix-toolbar.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { SENSITIVE_WARNING } from './sensitive-words.js';
import { rootRows, serverColumns, type RootSort } from './matrix-view.js';
import { offerUndo } from '../undo-offer.js';

/** A folder row's height in matrix.css; short windows draw it slimmer to keep six rows on first sight. */
const ROW_HEIGHT = 40;
const SHORT_ROW_HEIGHT = 36;
/** The two header rows before they are measured (server names may wrap to more lines). */
const HEAD_HEIGHT = 112;
const OVERSCAN_ROWS = 6;
/** --rowhead and --col in matrix.css. */
const ROWHEAD_WIDTH = 300;
const COLUMN_WIDTH = 124;
const NOTHING: ReadonlySet<string> = new Set();

interface Feedback {
  what: string;
  error: HostError;
  cell?: string;
}

export function ConsentMatrix({ roots, servers }: { roots: RootView[]; servers: ServerView[] }) {
  const { t } = useI18n();
  const { client } = useHost();
  const grants = useGrantIndex();
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);

  const [filter, setFilter] = useState('');
  const [serverFilter, setServerFilter] = useState('');
  const [sharedOnly, setSharedOnly] = useState(false);
  const [sort, setSort] = useState<RootSort>('added');
  const [selectedRoots, setSelectedRoots] = useState<ReadonlySet<string>>(NOTHING);
  const [selectedServers, setSelectedServers] = useState<ReadonlySet<string>>(NOTHING);
  const [active, setActive] = useState<CellPosition>({ row: HEADER_ROWS, col: 1 });
  const { pending, begin, finish } = usePendingGrants(grants);
  const [pendingSharing, setPendingSharing] = useState<ReadonlySet<string>>(NOTHING);
  const [feedback, setFeedback] = useState<Feedback | undefined>();
  const [bulkPending, setBulkPending] = useState(false);
  const [bulkError, setBulkError] = useState<HostError | undefined>();
  const [bulkNote, setBulkNote] = useState<string | undefined>();
  /** A grant of a sensitive folder waits for a plain "Share anyway" (#30 item 2), as the suggestion dialog's does. */
  const [sensitiveAsk, setSensitiveAsk] = useState<{ roots: RootView[]; servers: string; go: () => void } | undefined>();
  const askIfSensitive = useCallback((scope: readonly RootView[], serverNames: readonly string[], go: () => void) => {
    const sensitive = scope.filter((root) => root.sensitive);
    if (sensitive.length === 0) return go();
    setSensitiveAsk({ roots: sensitive, servers: serverNames.join(', '), go });
  }, []);
  const focusWanted = useRef(false);

  // What is shown: the column filter first (a "shared only" view asks about the servers shown),
  // then the folders. A bulk change acts on exactly these, never on what the filters hide.
  const visibleServers = useMemo(() => serverColumns(servers, serverFilter), [servers, serverFilter]);
  const rows = useMemo(() => rootRows(roots, visibleServers, grants, { filter, sort, sharedOnly }), [roots, visibleServers, grants, filter, sort, sharedOnly]);
  const visibleRoots = useMemo(() => rows.map((row) => row.root), [rows]);

  // The first frame holds only what is on screen: no overscan rows, and only the server columns that
  // fit in the window (the scroller is narrower, so this never falls short). Right after it is
  // painted every column is rendered: columns are not virtualized, so each cell stays findable.
  const painted = useFirstPaintDone();
  const rowHeight = useShortWindow() ? SHORT_ROW_HEIGHT : ROW_HEIGHT;
  const headHeight = useElementHeight(gridRef, '.matrix__head', HEAD_HEIGHT);
  const { start, end, padTop, padBottom, scrollToRow } = useVirtualRows(scrollRef, visibleRoots.length, rowHeight, headHeight, painted ? OVERSCAN_ROWS : 0);
  const shownServers = useMemo(
    () => (painted ? visibleServers : visibleServers.slice(0, Math.ceil(Math.max(0, window.innerWidth - ROWHEAD_WIDTH) / COLUMN_WIDTH))),
    [painted, visibleServers],
  );
  const rowCount = visibleRoots.length + HEADER_ROWS;
  const colCount = visibleServers.length + 1;

  // Keep the one Tab stop on a cell that exists and is rendered (rows scroll out of the window).
  const clamped = { row: Math.min(active.row, rowCount - 1), col: Math.min(active.col, colCount - 1) };
  const activeBodyRow = clamped.row - HEADER_ROWS;
  const tabRow = clamped.row < HEADER_ROWS || (activeBodyRow >= start && activeBodyRow < end) ? clamped.row : start + HEADER_ROWS;
  const tabStop = useMemo(() => ({ row: tabRow, col: clamped.col }), [tabRow, clamped.col]);

  useLayoutEffect(() => {
    if (!focusWanted.current) return;
    const element = gridRef.current?.querySelector<HTMLElement>(`[data-cell="${tabStop.row}:${tabStop.col}"]`);
    if (element) {
      focusWanted.current = false;
      element.focus();
    }
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const from = parseCellKey((event.target as HTMLElement).dataset.cell);
    if (!from) return;
    const pageRows = Math.max(1, Math.floor(((scrollRef.current?.clientHeight ?? 400) - headHeight) / rowHeight) - 1);
    const next = moveCell(event.key, event.ctrlKey || event.metaKey, from, rowCount, colCount, pageRows);
    if (!next) return;
    event.preventDefault();
    if (next.row >= HEADER_ROWS) scrollToRow(next.row - HEADER_ROWS);
    focusWanted.current = true;
    setActive(next);
  };

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const position = parseCellKey((event.target as HTMLElement).dataset.cell);
    if (position && (position.row !== active.row || position.col !== active.col)) setActive(position);
  };

  // Stable callbacks keep the memoized rows from re-rendering; each call has its own pending mark.
  const onToggleNow = useCallback(
    async (root: RootView, server: ServerView, granted: boolean) => {
      const key = grantKey(root.id, server.id);
      // A click grants read-only (least privilege); the mark shows it at once, read-write is the ro/rw button.
      begin(root.id, server.id, granted, granted ? NEW_GRANT_MODE : undefined);
      setFeedback(undefined);
      const result = await callSafely(client, 'grants.set', { serverIds: [server.id], rootIds: [root.id], granted });
      finish(root.id, server.id, result.ok);
      if (!result.ok) {
        const what = t(granted ? 'matrix.failedGrant' : 'matrix.failedRevoke', { root: root.name, server: server.name });
        setFeedback({ what, error: result.error, cell: key });
      }
    },
    [client, t, begin, finish],
  );
  const onToggle = useCallback(
    async (root: RootView, server: ServerView, granted: boolean) => {
      if (granted) askIfSensitive([root], [server.name], () => void onToggleNow(root, server, true));
      else await onToggleNow(root, server, false);
    },
    [askIfSensitive, onToggleNow],
  );

  const onMode = useCallback(
    async (root: RootView, server: ServerView, mode: GrantMode) => {
      const key = grantKey(root.id, server.id);
      begin(root.id, server.id, true, mode);
      setFeedback(undefined);
      const result = await callSafely(client, 'grants.set', { serverIds: [server.id], rootIds: [root.id], granted: true, mode });
      finish(root.id, server.id, result.ok);
      if (!result.ok) setFeedback({ what: t('matrix.failedMode', { root: root.name, server: server.name }), error: result.error, cell: key });
    },
    [client, t, begin, finish],
  );

  const [optInFor, setOptInFor] = useState<{ rootId: string; serverId: string } | undefined>();
  const onOptIn = useCallback((root: RootView, server: ServerView) => setOptInFor({ rootId: root.id, serverId: server.id }), []);
  const optInRoot = optInFor && roots.find((root) => root.id === optInFor.rootId);
  const optInServer = optInFor && servers.find((server) => server.id === optInFor.serverId);

  const onSharing = useCallback(
    async (server: ServerView, sharing: boolean) => {
      setPendingSharing((previous) => new Set(previous).add(server.id));
      setFeedback(undefined);
      const result = await callSafely(client, 'servers.setSharing', { serverId: server.id, sharing });
      setPendingSharing((previous) => {
        const next = new Set(previous);
        next.delete(server.id);
        return next;
      });
      if (!result.ok) setFeedback({ what: t('matrix.failedSharing', { server: server.name }), error: result.error });
    },
    [client, t],
  );

  const onSelectRoot = useCallback((rootId: string, selected: boolean) => {
    setSelectedRoots((previous) => toggled(previous, rootId, selected));
  }, []);
  const onSelectServer = useCallback((serverId: string, selected: boolean) => {
    setSelectedServers((previous) => toggled(previous, serverId, selected));
  }, []);

  // The selection only ever names folders/servers that still exist (and folders the filter shows).
  const scopeRoots = useMemo(() => {
    const picked = visibleRoots.filter((root) => selectedRoots.has(root.id));
    return picked.length > 0 ? picked : visibleRoots;
  }, [visibleRoots, selectedRoots]);
  const pickedRootCount = scopeRoots === visibleRoots && !visibleRoots.some((root) => selectedRoots.has(root.id)) ? 0 : scopeRoots.length;
  const scopeServers = useMemo(() => {
    const picked = visibleServers.filter((server) => selectedServers.has(server.id));
    return picked.length > 0 ? picked : visibleServers;
  }, [visibleServers, selectedServers]);
  const pickedServerCount = visibleServers.some((server) => selectedServers.has(server.id)) ? scopeServers.length : 0;

  const allRootsSelected = pickedRootCount === 0 ? false : pickedRootCount === visibleRoots.length ? true : 'mixed';
  const onSelectAllRoots = useCallback(
    (selected: boolean) => setSelectedRoots(selected ? new Set(visibleRoots.map((root) => root.id)) : NOTHING),
    [visibleRoots],
  );

  const onBulk = async (granted: boolean, mode?: GrantMode) => {
    if (granted) return askIfSensitive(scopeRoots, scopeServers.map((server) => server.name), () => void onBulkNow(true, mode));
    return onBulkNow(false);
  };
  const onBulkNow = async (granted: boolean, mode?: GrantMode) => {
    // A server in error is left out of a Share (it would start with folders nobody looked at again), and the note says so.
    const skipped = granted ? scopeServers.filter((server) => server.status.state === 'error') : [];
    const targets = scopeServers.filter((server) => !skipped.includes(server));
    setBulkNote(skipped.length > 0 ? t('matrix.bulkSkipped', { names: skipped.map((server) => server.name).join(', ') }) : undefined);
    if (targets.length === 0) return;
    setBulkPending(true);
    setBulkError(undefined);
    const result = await callSafely(client, 'grants.set', {
      serverIds: targets.map((server) => server.id),
      rootIds: scopeRoots.map((root) => root.id),
      granted,
      ...(granted ? { mode: mode ?? NEW_GRANT_MODE } : {}),
    });
    setBulkPending(false);
    if (!result.ok) setBulkError(result.error);
    else if (result.value.changed > 0) offerUndo(result.value.undoId, t(granted ? 'undo.granted' : 'undo.revoked', { count: result.value.changed }));
  };

  return (
    <div className="matrix-wrap">
      <MatrixToolbar
        filter={filter}
        onFilter={setFilter}
        serverFilter={serverFilter}
        onServerFilter={setServerFilter}
        sharedOnly={sharedOnly}
        onSharedOnly={setSharedOnly}
        sort={sort}
        onSort={setSort}
        shownRoots={visibleRoots.length}
        totalRoots={roots.length}
        shownServers={visibleServers.length}
        totalServers={servers.length}
        selectedRoots={pickedRootCount}
        selectedServers={pickedServerCount}
        scopeRoots={scopeRoots.length}
        scopeServers={scopeServers.length}
        scopeInError={scopeServers.filter((server) => server.status.state === 'error').map((server) => server.name)}
        onBulk={(granted, mode) => void onBulk(granted, mode)}
        onClear={() => {
          setSelectedRoots(NOTHING);
          setSelectedServers(NOTHING);
        }}
        bulkPending={bulkPending}
        bulkError={bulkError}
        bulkNote={bulkNote}
        onDismissBulkError={() => setBulkError(undefined)}
      />
      <MatrixLegend />
      <div className="matrix-feedback">
        {feedback && (
          <InlineError
            error={{ code: feedback.error.code, message: `${feedback.what} ${feedback.error.message}` }}
            onDismiss={() => setFeedback(undefined)}
          />
        )}
      </div>
      {/* Keyboard focus scrolls cells into view clear of the sticky header, however tall it is drawn. */}
      <div ref={scrollRef} className="matrix__scroll" style={{ scrollPaddingTop: headHeight }}>
        <div
          ref={gridRef}
          role="grid"
          aria-label={t('matrix.gridLabel')}
          aria-rowcount={rowCount}
          aria-colcount={colCount}
          className="matrix"
          style={{ '--matrix-cols': visibleServers.length } as CSSProperties}
          onKeyDown={onKeyDown}
          onFocus={onFocus}
        >
          <MatrixHeader
            servers={shownServers}
            selectedServers={selectedServers}
            allRootsSelected={allRootsSelected}
            rootCount={visibleRoots.length}
            active={tabStop}
            pendingSharing={pendingSharing}
            onSelectServer={onSelectServer}
            onSelectAllRoots={onSelectAllRoots}
            onSharing={onSharing}
          />
          <div role="rowgroup">
            <div style={{ height: padTop }} aria-hidden="true" />
            {rows.slice(start, end).map(({ root, match, hint }, offset) => {
              const row = start + offset + HEADER_ROWS;
              return (
                <MatrixRow
                  key={root.id}
                  root={root}
                  match={match}
                  hint={hint}
                  row={row}
                  servers={shownServers}
                  grants={grants}
                  selected={selectedRoots.has(root.id)}
                  activeCol={tabStop.row === row ? tabStop.col : -1}
                  pending={pending}
                  failed={feedback?.cell}
                  onToggle={onToggle}
                  onMode={onMode}
                  onSelect={onSelectRoot}
                  onOptIn={onOptIn}
                />
              );
            })}
            <div style={{ height: padBottom }} aria-hidden="true" />
          </div>
        </div>
        {visibleRoots.length === 0 && (
          <p className="matrix__nomatch">{filter.trim() ? t('matrix.noMatch', { filter }) : sharedOnly ? t('matrix.noShared') : t('matrix.noRows')}</p>
        )}
        {visibleServers.length === 0 && <p className="matrix__nomatch">{t('matrix.noServerMatch', { filter: serverFilter })}</p>}
      </div>
      <ConfirmDialog
        open={sensitiveAsk !== undefined}
        title={t('matrix.sensitiveTitle', { count: sensitiveAsk?.roots.length ?? 0 })}
        confirmLabel={t('matrix.sensitiveConfirm')}
        onConfirm={() => {
          const ask = sensitiveAsk;
          setSensitiveAsk(undefined);
          ask?.go();
        }}
        onCancel={() => setSensitiveAsk(undefined)}
      >
        {sensitiveAsk?.roots.map((root) => (
          <p key={root.id}>
            <strong className="mono">{root.canonicalPath}</strong> ({t('matrix.sensitiveFor', { servers: sensitiveAsk.servers })}): {t(SENSITIVE_WARNING[root.sensitive!])}
          </p>
        ))}
      </ConfirmDialog>
      {optInRoot && optInServer && (
        <OptInDialog root={optInRoot} server={optInServer} readOnly={grants.isReadOnly(optInServer.id, optInRoot.id)} onClose={() => setOptInFor(undefined)} />
      )}
    </div>
  );
}

function toggled(previous: ReadonlySet<string>, id: string, on: boolean): ReadonlySet<string> {
  if (previous.has(id) === on) return previous;
  const next = new Set(previous);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}
