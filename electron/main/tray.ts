// The tray icon: how many servers are connected, and Show / Quit.
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import type { HostState } from '../../shared/domain.js';
import type { RootsHost } from '../host/roots-host.js';
import { PRODUCT_NAME } from '../host/registry/config-dir.js';
import { iconPng } from './app-icon.js';

export interface ServerSummary {
  connected: number;
  /** Enabled servers only: a server the user turned off is not "down". */
  total: number;
  label: string;
}

export function serverSummary(state: Pick<HostState, 'servers'>): ServerSummary {
  const enabled = state.servers.filter((server) => server.enabled);
  const connected = enabled.filter((server) => server.status.state === 'connected').length;
  const total = enabled.length;
  const label = total === 0 ? 'No servers enabled' : `${connected} of ${total} servers connected`;
  return { connected, total, label };
}

export function appIconImage(): NativeImage {
  const image = nativeImage.createEmpty();
  image.addRepresentation({ scaleFactor: 1, buffer: iconPng(16) });
  image.addRepresentation({ scaleFactor: 2, buffer: iconPng(32) });
  return image;
}

export interface TrayActions {
  show(): void;
  quit(): void;
  /** More items between Show and Quit ("Install Command Line Tool…"). */
  more?: MenuItemConstructorOptions[];
}

export function setupTray(host: Pick<RootsHost, 'getState' | 'on'>, actions: TrayActions): Tray {
  const tray = new Tray(appIconImage());
  let shownLabel: string | undefined;
  const render = (state: Pick<HostState, 'servers'>): void => {
    const { label } = serverSummary(state);
    if (label === shownLabel || tray.isDestroyed()) return;
    shownLabel = label;
    tray.setToolTip(`${PRODUCT_NAME}: ${label}`);
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label, enabled: false },
        { type: 'separator' },
        { label: `Show ${PRODUCT_NAME}`, click: () => actions.show() },
        ...(actions.more ?? []),
        { label: 'Quit', click: () => actions.quit() },
      ]),
    );
  };
  render(host.getState());
  host.on('state', render);
  tray.on('click', () => actions.show());
  return tray;
}
