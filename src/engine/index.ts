export { Engine } from './Engine';
export type { EngineOptions, RunOptions } from './Engine';
export { BrepscopeError, toErrorPayload } from './errors';
export type { ErrorCode, ErrorPayload } from './errors';
export type { FileAccess, ToolContext } from './tools/defineTool';
export type { ToolManifest } from './tools/registry';
export type { BodySummary } from './scene/describeBody';
export { getKernel, setKernelLoader, kernelStatus, onKernelStatus } from './kernel';
export type { KernelStatus } from './kernel';
