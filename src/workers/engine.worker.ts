import * as Comlink from 'comlink';
import { createBrowserEngine } from './browserEngine';
import { guarded } from './guarded';
import { testBuildApi } from './testHooks';

// Test builds (vite build --mode e2e) add test hooks; a production build exposes the engine alone
// (the branch and the hooks' module are removed from it).
Comlink.expose(import.meta.env.MODE === 'e2e' ? testBuildApi(createBrowserEngine) : guarded(createBrowserEngine()));
