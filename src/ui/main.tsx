import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createEngineClient } from '../workers/client';
import { App } from './App';
import { openDemoCompared } from './demo';
import { parseShareHash } from './shareLink';
import { openShareLink } from './shareLinks';
import { startApp } from './start';
import { installTestApi } from './testApi';
import './app.css';

/**
 * The demo opens by itself with `?demo`, and under `npm start` (dev server) when the address asks
 * for nothing else (no query, no hash). Everywhere else the empty page offers "Open the demo".
 */
function wantsDemo(): boolean {
  if (new URLSearchParams(window.location.search).has('demo')) return true;
  return import.meta.env.DEV && window.location.search === '' && window.location.hash === '';
}

// Test builds (vite build --mode e2e) install the test API and count engine calls; production does not.
const createClient = import.meta.env.MODE === 'e2e' ? installTestApi(createEngineClient) : createEngineClient;
// Start the worker (and with it the kernel download) before the first render.
startApp(createClient);
if (parseShareHash(window.location.hash)) void openShareLink(window.location.hash);
else if (wantsDemo()) void openDemoCompared(import.meta.env.BASE_URL);
// A share link pasted into the address bar of an open page applies too.
window.addEventListener('hashchange', () => {
  if (parseShareHash(window.location.hash)) void openShareLink(window.location.hash);
});

const root = document.getElementById('root');
if (!root) throw new Error('brepscope: #root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
