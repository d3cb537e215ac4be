import type { OC } from '../kernel';
import type { Body } from '../scene/Body';
import type { ToolContext } from './defineTool';

/** The kernel, loaded only when a BREP body is involved: mesh-only work never waits for it. */
export async function kernelFor(ctx: Pick<ToolContext, 'kernel'>, bodies: readonly Body[]): Promise<OC | undefined> {
  return bodies.some((b) => b.kind === 'brep') ? ctx.kernel() : undefined;
}
