import * as Comlink from 'comlink';
import { createBrowserEngine } from './browserEngine';
import { guarded } from './guarded';
import { testBuildApi } from './testHooks';
import { addViewerBuffers } from './viewerBuffers';

// Test builds (vite build --mode e2e) add test hooks; a production build exposes the engine alone
// (the branch and the hooks' module are removed from it). Display meshes leave with the viewport's
// buffers built here, off the page's thread.
const host = { decorate: addViewerBuffers };
Comlink.expose(import.meta.env.MODE === 'e2e' ? testBuildApi(createBrowserEngine, host) : guarded(createBrowserEngine(), host));
