import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The layer arrows of docs/architecture.md, enforced: each folder names what it may not import. */
const layer = (files, patterns, message) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.test.tsx'],
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }] },
});

const UI_LIBS = ['react', 'react-dom', 'react-dom/*', '@react-three/*', 'three', 'zustand', 'zustand/*'];
const NODE_ONLY = ['node:*', '**/loadNodeKernel', '**/node/*', 'opencascade.js/dist/node.js'];
// The BVH node layout is mesh's own (src/engine/mesh/bvhLayout.ts): other folders walk a tree through mesh/bvhTraversal.ts.
const ENGINE_WIDE = [...UI_LIBS, 'node:*', '**/ui/*', '**/viewer/*', '**/workers/*', '**/cli/*', '**/mcp/*', '**/node/*', '**/mesh/bvhLayout'];
/**
 * Hosts reach the engine through src/engine/index.ts only: its modules past the door are off limits.
 * hostFacts is the door's light half, for a host's main thread that runs the engine in a worker.
 */
const ENGINE_INTERNALS = ['**/engine/*', '**/engine/**/*', '!**/engine/hostFacts'];
const THROUGH_INDEX = 'hosts use the engine through src/engine/index.ts only (docs/architecture.md)';

export default tseslint.config(
  { ignores: ['dist', 'dist-e2e', 'dist-bench', 'dist-cli', 'node_modules', 'test-results', 'playwright-report', 'bench/results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name=/^(skip|only|todo)$/][object.name=/^(it|test|describe)$/]", message: 'No skipped, focused or todo tests.' },
      ],
    },
  },
  // Flat config replaces a rule per block, so each engine folder carries the engine-wide list too.
  // Playwright tests that use no fixture still name their first argument as an (empty) pattern.
  { files: ['e2e/**'], rules: { 'no-empty-pattern': 'off' } },
  layer(['src/engine/**'], ENGINE_WIDE, 'The engine has no DOM, React or renderer and knows no host.'),
  layer(['src/engine/kernel/**'], [...ENGINE_WIDE, '../*', '!../kernel/*'], 'src/engine/kernel imports nothing of ours (engine layers: docs/architecture.md).'),
  layer(['src/engine/mesh/**'], [...ENGINE_WIDE, '**/tools/*', '**/scene/*', '**/graph/*', '**/render/*'], 'mesh may import the kernel only (engine layers: docs/architecture.md).'),
  layer(['src/engine/exact/**'], [...ENGINE_WIDE, '**/kernel', '**/kernel/*', '**/tools/*', '**/scene/*', '**/graph/*', '**/render/*'], 'exact is plain JS on extracted data (no kernel: it runs in threads without one); it may import mesh only.'),
  layer(['src/engine/points/**'], [...ENGINE_WIDE, '**/kernel', '**/kernel/*', '**/tools/*', '**/scene/*', '**/graph/*', '**/render/*', '**/mesh/*', '**/exact/*'], 'points is plain JS on a cloud\'s typed arrays (no kernel); it may import math only.'),
  layer(['src/engine/scene/**'], [...ENGINE_WIDE, '**/tools/*', '**/graph/*', '**/render/*'], 'scene may import kernel and mesh only (engine layers: docs/architecture.md).'),
  layer(['src/engine/graph/**'], [...ENGINE_WIDE, '**/tools/*', '**/mesh/*', '**/render/*'], 'graph may import kernel and scene only (engine layers: docs/architecture.md).'),
  layer(['src/engine/math/**'], [...ENGINE_WIDE, '../*', '!../math/*'], 'math is plain numerics: it imports nothing else of ours (engine layers: docs/architecture.md).'),
  layer(['src/engine/deviation/**'], [...ENGINE_WIDE, '**/tools/*', '**/meshThreads/*', '**/graph/*', '**/render/*'], 'deviation is a domain below the tools: it may import kernel, scene, mesh, exact, points and math, never tools or the mesh threads (docs/architecture.md).'),
  layer(['src/engine/alignment/**'], [...ENGINE_WIDE, '**/tools/*', '**/meshThreads/*', '**/graph/*', '**/render/*'], 'alignment is a domain below the tools: it may import math, mesh, exact, points, scene, kernel, deviation and the context, never tools (docs/architecture.md).'),
  layer(['src/engine/meshThreads/**'], [...ENGINE_WIDE, '**/tools/*', '**/scene/*', '**/scene', '**/kernel', '**/kernel/kernel', '**/graph/*', '**/render/*', 'zod'], 'the mesh threads load mesh and deviation work only: no tools, scene, kernel or zod (docs/architecture.md).'),
  layer(['src/engine/tools/**'], [...ENGINE_WIDE, '**/meshThreads/*'], 'tools are thin: schema + a call into a domain; threads are the host\'s (docs/architecture.md).'),
  layer(['src/engine/gdt/**'], [...ENGINE_WIDE, '**/tools/*', '**/graph/*', '**/render/*', '**/meshThreads/*'], 'gdt may import math, mesh, exact, points, deviation, kernel and scene, never tools (engine layers: docs/architecture.md).'),
  layer(['src/engine/report/**'], [...ENGINE_WIDE, '**/kernel', '**/kernel/*', '**/meshThreads/*', '**/scene/*', '**/graph/*'], 'report turns tool results into a document: it takes their types and the render helpers, never the kernel or the scene (docs/architecture.md).'),
  layer(['src/engine/features/**'], [...ENGINE_WIDE, '**/tools/*', '**/meshThreads/*', '**/render/*'], 'features recognises holes and pockets on a BREP: kernel, math, graph and scene, never tools (docs/architecture.md).'),
  layer(['src/engine/render/**'], [...ENGINE_WIDE, '../*', '!../render/*'], 'render imports nothing of ours (engine layers: docs/architecture.md).'),
  layer(['src/viewer/**'], ['**/workers/*', '**/ui/*', ...NODE_ONLY, ...ENGINE_INTERNALS], `viewer takes only types from the engine; ${THROUGH_INDEX}.`),
  layer(['src/ui/**'], [...NODE_ONLY, ...ENGINE_INTERNALS, '**/cli/*', '**/mcp/*'], `ui talks to the engine through workers/client; ${THROUGH_INDEX}.`),
  layer(['src/workers/**'], [...UI_LIBS, ...NODE_ONLY, ...ENGINE_INTERNALS, '**/ui/*', '**/cli/*', '**/mcp/*'], `workers host the engine; no UI and no Node; ${THROUGH_INDEX}.`),
  layer(['src/cli/**'], [...UI_LIBS, ...ENGINE_INTERNALS, '**/ui/*', '**/viewer/*', '**/workers/*'], `the CLI is a Node host; ${THROUGH_INDEX}.`),
  layer(['src/mcp/**'], [...UI_LIBS, ...ENGINE_INTERNALS, '**/ui/*', '**/viewer/*', '**/workers/*', '**/cli/*'], `the MCP server is a Node host; ${THROUGH_INDEX}.`),
  layer(['src/node/**'], [...UI_LIBS, ...ENGINE_INTERNALS, '**/ui/*', '**/viewer/*', '**/workers/*', '**/cli/*', '**/mcp/*'], `src/node holds the Node host's seams; ${THROUGH_INDEX}.`),
  // The mesh worker threads load the engine's mesh work only (src/engine/meshWork.ts, the second door):
  // the whole engine through the index would cost each thread the tool registry's start-up.
  layer(['src/node/meshWorker.ts', 'src/workers/mesh.worker.ts'], [...UI_LIBS, ...ENGINE_INTERNALS, '!**/engine/meshWork', '**/ui/*', '**/viewer/*', '**/workers/*', '**/cli/*', '**/mcp/*'], `a mesh worker uses src/engine/meshWork.ts only.`),
  // Benchmarks time tools through Engine.run (index) and the mesh layer and file codecs on their own;
  // tool internals (and their caches), the kernel module and the Engine class past the door are off limits.
  layer(['bench/**'], ['react', 'react-dom', 'react-dom/*', '@react-three/*', 'zustand', 'zustand/*', '**/engine/tools/*', '**/engine/Engine', '**/engine/kernel', '**/engine/kernel/*', '**/engine/scene/*', '!**/engine/scene/import', '!**/engine/scene/import/*', '**/ui/*', '**/workers/*'], `bench runs tools through the Engine; ${THROUGH_INDEX}.`),
  layer(['e2e/**'], ['**/src/engine', '**/src/engine/**', '**/src/node/**', '**/src/cli/**', '**/src/mcp/**', '**/src/workers/**'], 'e2e tests drive the built app; they read its state through the test API (src/ui/testApi.ts) only.'),
  {
    files: ['src/ui/**', 'src/viewer/**', 'src/engine/**', 'src/cli/**', 'src/node/**'],
    // Where engines start in workers: the page's (client.ts) and its mesh workers (browserMeshWorkers.ts), Node's engine thread (EngineHost.ts) and its mesh threads (meshThreadStart.ts).
    ignores: ['src/workers/client.ts', 'src/node/EngineHost.ts', 'src/node/meshThreadStart.ts', 'src/workers/browserMeshWorkers.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Worker']", message: 'Only src/workers/client.ts, src/workers/browserMeshWorkers.ts, src/node/EngineHost.ts and src/node/meshThreadStart.ts construct a Worker.' },
        { selector: "MemberExpression[property.name=/^(skip|only|todo)$/][object.name=/^(it|test|describe)$/]", message: 'No skipped, focused or todo tests.' },
      ],
    },
  },
);
