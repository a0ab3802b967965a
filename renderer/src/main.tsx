// Entry point: one host client and one state store for this window, then React.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/app.js';
import { getHostClient } from './host-client.js';
import { HostProvider } from './host-context.js';
import { createHostStore } from './host-store.js';
import './styles/tokens.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/indicators.css';
import './styles/layout.css';
import './styles/roots.css';
import './styles/matrix.css';
import './styles/servers.css';
import './styles/dialog.css';

const client = getHostClient();
const store = createHostStore(client);
const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

createRoot(container).render(
  <StrictMode>
    <HostProvider value={{ client, store }}>
      <App />
    </HostProvider>
  </StrictMode>,
);
