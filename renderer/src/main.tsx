// Entry point: one host client and one state store for this window, then React.
// connect-early goes first so the state is on its way before the rest of the bundle is evaluated.
import { client, store } from './connect-early.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/app.js';
import { HostProvider } from './host-context.js';
import './styles/tokens.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/indicators.css';
import './styles/layout.css';
import './styles/roots.css';
import './styles/matrix.css';
import './styles/servers.css';
import './styles/sandbox.css';
import './styles/dialog.css';
import './styles/import.css';
import './styles/short-window.css';
import './styles/history.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

createRoot(container).render(
  <StrictMode>
    <HostProvider value={{ client, store }}>
      <App />
    </HostProvider>
  </StrictMode>,
);
