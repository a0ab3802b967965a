// The window's one host client and state store, created before anything else is evaluated.
// main.tsx imports this module first, and ES modules run in import order: the socket opens, and the
// server starts sending the state, while React and the screens are still being evaluated.
import { getHostClient } from './host-client.js';
import { createHostStore } from './host-store.js';

export const client = getHostClient();
export const store = createHostStore(client);
