/**
 * The engine's one door: every host (src/workers, src/cli, src/mcp, src/node, src/ui for types,
 * bench) imports from here and nowhere else in src/engine (eslint no-restricted-imports).
 */

// The service.
export { Engine } from './Engine';
export type { EngineOptions, KeptBody, KeptPlacement, LoadRequest, RestoreReport, RunOptions, RunOutcome, SceneSnapshot } from './Engine';
export { isToolName } from './tools/registry';
export type { ToolArgs, ToolManifest, ToolName, ToolResult } from './tools/registry';
export type { EngineTrace, FileAccess, ReadOptions, ToolCategory } from './tools/defineTool';
export type { Directions, DirectionsJob, MeshSide, MeshSideJob, MeshWorkers, SharedDirection } from './deviation/meshWorkers';
export { createMeshThreadHost } from './meshThreads/host';
export { runSelfCheckJob } from './scene/selfCheckJob';
export type { SelfCheckAbandoned, SelfCheckAnswer, SelfCheckJob, SelfCheckThread } from './scene/selfCheckJob';
export { createSelfCheckHost, serveSelfCheckJobs, STOP_GRACE_MS } from './scene/selfCheckHost';
export type { SelfCheckHost, SelfCheckHostOptions, SelfCheckPlatform, SelfCheckPort, SelfCheckReply, SelfCheckRequest, SelfCheckWorker } from './scene/selfCheckHost';
export type { ValidationIssue } from './scene/shapeIssues';
export { meshThreadsFor } from './meshThreads/threadCount';
export type { HostMeshWorkers, HostThread, ThreadPlatform } from './meshThreads/host';
export type { ThreadPort } from './meshThreads/protocol';
export type { SurfaceSamples } from './mesh/sampleSurface';
export type { DirectedDeviation } from './deviation/measure';
export type { TriMesh } from './mesh/TriMesh';
export type { TriangleBvh } from './mesh/TriangleBvh';

// Files and errors.
export { memoryFiles, mimeTypeOf } from './files';
export type { OutputFile } from './files';
export type { ToolWarning, WarningCode } from './warnings';
export { inBodiesWords } from './warnings';
// Errors, JSON printing and help-text values: also reachable without loading the engine (hostFacts).
export * from './hostFacts';
export { MAX_IMPORT_BYTES } from './scene/import/importBody';
export { setImportMemoryBudget } from './scene/import/importLimits';
export { defaultBodyId } from './scene/Scene';
export { figureText, maxDeviation, shareText } from './report/figures';
export { SUPPORTED_EXTENSIONS as MODEL_EXTENSIONS } from './scene/import/detectFormat';
export { GRAPH_DATABASE_EXTENSIONS, isGraphDatabaseName } from './graph/graphSqlite';

// Host seams: how this process loads the kernel and sql.js and draws PNGs.
export { getKernel, setKernelLoader, lazyEmbind, KERNEL_GLUE_ID } from './kernel';
export type { KernelLoader, KernelState, KernelStatus, OC } from './kernel';
export { getSqlJs, setSqlJsLoader } from './graph/sqlJs';
export type { SqlJsStatic } from './graph/sqlJs';
export { setSurfaceFactory } from './render/canvas';
export type { Context2D, DrawingSurface } from './render/canvas';

// Result types, for hosts that show them.
export type { BodySummary, PlacementSummary } from './scene/describeBody';
export type { PlacementRecord } from './scene/Body';
export type { DisplayMesh } from './scene/tessellation';
export type { DisplayEdges } from './scene/displayEdges';
export type { MetricsResult } from './tools/computeMetrics';
export type { TopologyEntry } from './tools/queryTopology';
export type { DeviationResult, SectionStation as DeviationStation } from './tools/measureDeviation';
export type { DirectedRecord } from './deviation/record';
export type { HistogramResult } from './tools/deviationHistogram';
export type { DeviationLabel } from './tools/deviationLabels';
export type { AlignMode, AlignResult, PreAlignment } from './alignment/alignBodies';
export type { HistogramBucket } from './render/histogramChart';
export type { HeatmapData, HeatmapResult } from './tools/deviationHeatmap';
export type { CrossSectionResult, SectionStation as CrossSectionStation } from './tools/crossSectionCompare';
export type { AssemblyNode, Matrix4 } from './tools/inspectAssembly';
export type { Feature, HoleFeature, PocketFeature } from './tools/recognizeFeatures';
export type { GraphValidateResult } from './graph/graphValidate';
export type { GraphQueryResult } from './graph/graphSqlite';
export type { GraphExportResult } from './tools/graphExport';
export type { Vec3 } from './math/vec3';

// The CAD's general tolerance from its PMI (the app's tolerance default, issue 29.3).
export { generalTolerance } from './gdt/generalTolerance';
export type { GeneralTolerance } from './gdt/generalTolerance';

// The deviation colour map and heat-map pictures (src/engine/render): the app's viewer and legend use the same map.
export { AMBIGUOUS, NEUTRAL, NO_DATA, colorVertices, colorRange, colorSpan, cssColor, defaultTolerance, deviationColor, deviationColorInto, maxAbsValue } from './render/heatColors';
export type { Rgb } from './render/heatColors';
export { DEFAULT_IMAGE_HEIGHT, DEFAULT_IMAGE_WIDTH, MAX_IMAGE_SIZE, MIN_IMAGE_SIZE, drawHeatmap, renderHeatmap, renderHeatmapPng } from './render/heatmapImage';
export type { HeatmapImageInfo, HeatmapImageInput } from './render/heatmapImage';
export type { CalloutLabel, CalloutStatus, PlacedCallout } from './render/callouts';
export { NAMED_VIEWS, VIEW_NAMES, fitCamera, projectPoint, viewBasis } from './render/camera';
export type { OrthoCamera, View, ViewName } from './render/camera';
