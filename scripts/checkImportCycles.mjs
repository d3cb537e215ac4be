#!/usr/bin/env node
// Fails when the source tree has an import cycle (type-only imports count: a cycle of types is still a
// tangle a newcomer must hold in their head), and when the mesh threads' entry reaches tools/.
// Usage: node scripts/checkImportCycles.mjs [root=src]
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? 'src');
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(p);
  }
})(root);

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec.replace(/\?.*$/, ''));
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(c) && statSync(c).isFile() && /\.tsx?$/.test(c)) return c;
  }
  return null;
}
const graph = new Map();
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  const deps = new Set();
  for (const m of text.matchAll(SPECIFIER)) {
    const target = resolveImport(f, m[1] ?? m[2] ?? m[3]);
    if (target && !/\.test\.tsx?$/.test(target)) deps.add(target);
  }
  graph.set(f, [...deps]);
}

// Tarjan's strongly connected components: every component of more than one file is a cycle.
let index = 0;
const idx = new Map(), low = new Map(), onStack = new Set(), stack = [], cycles = [];
function strong(v) {
  idx.set(v, index); low.set(v, index); index++;
  stack.push(v); onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!idx.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const comp = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); comp.push(w); } while (w !== v);
    if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(comp);
  }
}
for (const f of graph.keys()) if (!idx.has(f)) strong(f);

// The mesh threads load the mesh work only (src/engine/meshWork.ts): nothing of tools/, scene/ or the kernel.
const problems = [];
const meshWork = join(root, 'engine', 'meshWork.ts');
if (graph.has(meshWork)) {
  const seen = new Set([meshWork]);
  const todo = [meshWork];
  while (todo.length) for (const d of graph.get(todo.pop()) ?? []) if (!seen.has(d)) { seen.add(d); todo.push(d); }
  const forbidden = [...seen].filter((f) => /[\\/]engine[\\/](tools|scene|kernel[\\/]kernel|graph|render)[\\/]/.test(f) || /zod/.test(f));
  if (forbidden.length) problems.push(`the mesh threads' door (src/engine/meshWork.ts) reaches: ${forbidden.map((f) => relative(root, f)).join(', ')}`);
}

const rel = (f) => relative(process.cwd(), f);
for (const c of cycles) problems.push(`import cycle: ${c.map(rel).sort().join(' <-> ')}`);
if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log(`import graph: ${graph.size} files, no cycles`);
