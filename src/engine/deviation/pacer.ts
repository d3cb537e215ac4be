import { checkCancelled } from '../errors';
import type { CallControl } from '../callControl';

/**
 * Lets the event loop run (so an abort can arrive) every YIELD_MS of work, but only when the caller
 * can cancel at all: without a signal, long loops run straight through.
 */
const YIELD_MS = 50;
export class Pacer {
  private last = performance.now();
  constructor(private readonly ctx: CallControl) {}

  async tick(done: number, total: number, message: string): Promise<void> {
    checkCancelled(this.ctx);
    if (!this.ctx.signal && !this.ctx.progress) return;
    const now = performance.now();
    if (now - this.last < YIELD_MS) return;
    this.last = now;
    this.ctx.progress?.(done / total, message);
    if (this.ctx.signal) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      checkCancelled(this.ctx);
    }
  }
}
