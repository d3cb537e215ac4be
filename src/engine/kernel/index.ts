export { getKernel, setKernelLoader, hasKernelLoader, kernelStatus, onKernelStatus } from './kernel';
export type { OC, KernelLoader, KernelStatus } from './kernel';
export { KernelError } from './KernelError';
export { withKernel, toKernelError } from './scope';
export type { Own, Deletable } from './scope';
export { topAbs, isShapeKind } from './enums';
export type { ShapeKind } from './enums';
export { drainList } from './lists';
