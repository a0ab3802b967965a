// Picking folders where the OS dialog is out of reach (the UI in a browser): the host lists a
// folder's subfolders (`folders.list`), the person walks the tree and ticks the ones to add. One Tab
// stop for the list: arrows move, Space ticks, Enter or → opens, Backspace or ← goes up.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { FolderListing } from '../../../shared/contract.js';
import { useI18n } from '../i18n/i18n-context.js';
import { useCommand } from '../use-command.js';
import { useRoots } from '../use-host-state.js';
import { Dialog } from './dialog.js';
import { ChevronIcon, FolderIcon, LinkIcon } from './icons.js';
import { InlineError } from './inline-error.js';

export interface FolderBrowserProps {
  open: boolean;
  onClose(): void;
  /** The folders chosen, absolute. */
  onPick(paths: string[]): void;
}

export function FolderBrowser(props: FolderBrowserProps) {
  if (!props.open) return null;
  return <FolderBrowserBody {...props} />;
}

function FolderBrowserBody({ onClose, onPick }: FolderBrowserProps) {
  const { t } = useI18n();
  const list = useCommand('folders.list');
  const [listing, setListing] = useState<FolderListing | undefined>();
  const [typed, setTyped] = useState('');
  const [showHidden, setShowHidden] = useState(false);
  const [active, setActive] = useState(0);
  // Ticked folders, across the folders visited: a person may pick from several places at once.
  const [picked, setPicked] = useState<ReadonlyMap<string, string>>(new Map());
  const listRef = useRef<HTMLDivElement>(null);
  const id = useId();
  // Folders already added are shown as such and cannot be ticked: adding one again only failed,
  // with its path said twice in red (a new-user walk, #30).
  const roots = useRoots();
  const added = useMemo(() => new Set(roots.map((root) => root.path)), [roots]);

  // The newest request wins: a path typed while the first listing loads is not overwritten when
  // that listing arrives late (it did, on a loaded machine, and the typed path was lost).
  const latest = useRef(0);
  const go = useCallback(
    async (path: string | undefined, hidden = showHidden, focusName?: string) => {
      const request = ++latest.current;
      const result = await list.run({ ...(path ? { path } : {}), showHidden: hidden });
      if (request !== latest.current || !result.ok) return;
      setListing(result.value);
      setTyped(result.value.path);
      const index = focusName ? result.value.entries.findIndex((entry) => entry.name === focusName) : 0;
      setActive(Math.max(0, index));
    },
    [list.run, showHidden],
  );

  // The home folder first, once, on opening, unless the person has already asked for a folder: the
  // effect runs after the first paint, and on a loaded machine a path typed and entered at once came
  // first; the home listing then replaced it and cleared its error (ui-folder-browser, in CI).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (latest.current === 0) void go(undefined);
  }, [go]);

  // Keep the active folder in view as the arrows move it.
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listing]);

  const entries = listing?.entries ?? [];
  const toggle = (path: string, name: string) => {
    if (added.has(path)) return;
    setPicked((previous) => {
      const next = new Map(previous);
      if (next.has(path)) next.delete(path);
      else next.set(path, name);
      return next;
    });
  };
  const up = () => {
    if (!listing?.parent) return;
    const from = listing.path.split(/[\\/]/).filter(Boolean).pop();
    void go(listing.parent, showHidden, from);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const entry = entries[active];
    switch (event.key) {
      case 'ArrowDown':
        setActive(Math.min(entries.length - 1, active + 1));
        break;
      case 'ArrowUp':
        setActive(Math.max(0, active - 1));
        break;
      case 'Home':
        setActive(0);
        break;
      case 'End':
        setActive(Math.max(0, entries.length - 1));
        break;
      case ' ':
        if (entry) toggle(entry.path, entry.name);
        break;
      case 'Enter':
      case 'ArrowRight':
        if (entry) void go(entry.path);
        break;
      case 'Backspace':
      case 'ArrowLeft':
        up();
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const here = listing?.path;
  // The button names the folder it adds, the one listed, so it is not taken for the highlighted row.
  const hereName = here ? (here.split(/[\\/]/).filter(Boolean).pop() ?? here) : '';
  const pickedPaths = [...picked.keys()];
  const footer = (
    <>
      <span className="dialog__spacer" />
      <button type="button" className="button" onClick={onClose}>
        {t('common.cancel')}
      </button>
      <button type="button" className="button folder-browser__add-here" disabled={!here || added.has(here)} title={here} onClick={() => here && onPick([here])}>
        {t('browse.addHere', { name: hereName })}
      </button>
      <button type="button" className="button button--primary" disabled={pickedPaths.length === 0} onClick={() => onPick(pickedPaths)}>
        {t('browse.addPicked', { count: pickedPaths.length })}
      </button>
    </>
  );

  return (
    <Dialog open size="large" title={t('browse.title')} description={<p>{t('browse.intro')}</p>} onClose={onClose} testId="folder-browser" footer={footer}>
      <div className="folder-browser">
        <form
          className="folder-browser__path"
          onSubmit={(event) => {
            event.preventDefault();
            void go(typed);
          }}
        >
          <label htmlFor={`${id}-path`} className="field-label">
            {t('browse.pathLabel')}
          </label>
          <div className="add-root__row">
            <input id={`${id}-path`} className="input input--mono" value={typed} onChange={(event) => setTyped(event.target.value)} spellCheck={false} autoComplete="off" />
            {/* Never disabled while a listing loads: Enter in the field must go where the person typed. */}
            <button type="submit" className="button">
              {t('browse.go')}
            </button>
          </div>
        </form>
        <div className="folder-browser__bar">
          <button type="button" className="button button--compact" onClick={up} disabled={!listing?.parent || list.pending}>
            <ChevronIcon className="folder-browser__up" /> {t('browse.up')}
          </button>
          <button type="button" className="button button--compact" onClick={() => void go(listing?.home)} disabled={list.pending}>
            {t('browse.home')}
          </button>
          <label className="checkbox-label folder-browser__hidden">
            <input
              type="checkbox"
              className="checkbox"
              checked={showHidden}
              onChange={(event) => {
                setShowHidden(event.target.checked);
                if (here) void go(here, event.target.checked, entries[active]?.name);
              }}
            />
            {t('browse.showHidden')}
          </label>
        </div>
        <InlineError error={list.error} onDismiss={list.clearError} />
        <div
          ref={listRef}
          // An empty folder has no options, and a listbox without options is no listbox.
          role={entries.length > 0 ? 'listbox' : 'group'}
          aria-multiselectable={entries.length > 0 ? true : undefined}
          aria-label={t('browse.listLabel', { path: here ?? '' })}
          aria-describedby={`${id}-keys`}
          aria-activedescendant={entries[active] ? `${id}-option-${active}` : undefined}
          aria-busy={list.pending || undefined}
          tabIndex={0}
          className="folder-browser__list"
          onKeyDown={onKeyDown}
          data-autofocus
        >
          {entries.map((entry, index) => (
            <div
              key={entry.path}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={picked.has(entry.path)}
              aria-disabled={added.has(entry.path) || undefined}
              data-index={index}
              className={`folder-browser__item${index === active ? ' folder-browser__item--active' : ''}${entry.hidden ? ' folder-browser__item--hidden' : ''}`}
              onClick={() => {
                setActive(index);
                toggle(entry.path, entry.name);
              }}
              onDoubleClick={() => void go(entry.path)}
            >
              <span className={`folder-browser__tick${picked.has(entry.path) ? ' folder-browser__tick--on' : ''}${added.has(entry.path) ? ' folder-browser__tick--added' : ''}`} aria-hidden="true" />
              <FolderIcon className="folder-browser__icon" />
              <span className="folder-browser__name">{entry.name}</span>
              {added.has(entry.path) && <span className="folder-browser__added">{t('browse.added')}</span>}
              {entry.link && <LinkIcon size={12} className="muted" aria-hidden="true" />}
              {/* For the mouse; the keyboard opens with Enter (a button inside an option would be a control inside a control). */}
              <span
                className="folder-browser__open"
                aria-hidden="true"
                title={t('browse.open', { name: entry.name })}
                onClick={(event) => {
                  event.stopPropagation();
                  void go(entry.path);
                }}
              >
                <ChevronIcon className="folder-browser__into" />
              </span>
            </div>
          ))}
          {listing && entries.length === 0 && <p className="muted folder-browser__empty">{t('browse.empty')}</p>}
        </div>
        <p id={`${id}-keys`} className="field-hint">
          {listing?.truncated ? `${t('browse.truncated', { count: entries.length })} ` : ''}
          {t('browse.keys')}
        </p>
        {picked.size > 0 && (
          <p className="field-hint folder-browser__picked" role="status">
            {t('browse.pickedList', { names: [...picked.values()].join(', ') })}
          </p>
        )}
      </div>
    </Dialog>
  );
}
