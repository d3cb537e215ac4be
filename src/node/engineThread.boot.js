// The engine thread's entry: a worker thread does not inherit the main thread's TypeScript loader,
// so it registers tsx itself before loading the TypeScript entry (src/node/engineThread.ts).
import { register } from 'tsx/esm/api';

register();
await import('./engineThread.ts');
