export { getKernel, setKernelLoader, kernelStatus, onKernelStatus, requireKernel } from './kernel';
export type { OC, KernelLoader, KernelState, KernelStatus } from './kernel';
export { KERNEL_GLUE_ID, lazyEmbind } from './lazyEmbind';
export { KernelAbortedError, KernelError } from './KernelError';
export { withKernel, toKernelError } from './scope';
export type { Own, Deletable } from './scope';
export { topAbs, isShapeKind } from './enums';
export type { ShapeKind } from './enums';
export { drainList } from './lists';
