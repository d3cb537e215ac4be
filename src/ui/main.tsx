import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { openDemoCompared } from './inspect';
import { startEngine } from './session';
import { parseShareHash } from './shareLink';
import { installTestApi } from './testApi';
import { loadManifests, openShareLink } from './toolActions';
import './app.css';

/**
 * The demo opens by itself with `?demo`, and under `npm start` (dev server) when the address asks
 * for nothing else (no query, no hash). Everywhere else the empty page offers "Open the demo".
 */
function wantsDemo(): boolean {
  if (new URLSearchParams(window.location.search).has('demo')) return true;
  return import.meta.env.DEV && window.location.search === '' && window.location.hash === '';
}

installTestApi();
// Start the worker (and with it the kernel download) before the first render.
startEngine();
void loadManifests().catch(() => undefined);
if (parseShareHash(window.location.hash)) void openShareLink(window.location.hash);
else if (wantsDemo()) void openDemoCompared();
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
