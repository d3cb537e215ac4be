"""Open3D's RaycastingScene.compute_distance beside brepscope's closest point (bench/meshQueries.ts).

usage: python3 open3dDistance.py <dir> <threads>
<dir> holds positions.f64, indices.u32 and points.f64 (little-endian, xyz / abc per row).
Prints one JSON line: build (wall) and query (CPU) times (s) and the distances' sum, for a cross-check.
"""
import json
import sys
import time

import numpy as np
import open3d as o3d

folder, threads = sys.argv[1], int(sys.argv[2])
positions = np.fromfile(f"{folder}/positions.f64", dtype="<f8").reshape(-1, 3).astype(np.float32)
indices = np.fromfile(f"{folder}/indices.u32", dtype="<u4").reshape(-1, 3)
points = np.fromfile(f"{folder}/points.f64", dtype="<f8").reshape(-1, 3).astype(np.float32)

t0 = time.perf_counter()
scene = o3d.t.geometry.RaycastingScene(nthreads=threads)
scene.add_triangles(o3d.core.Tensor(positions), o3d.core.Tensor(indices))
query = o3d.core.Tensor(points)
# Embree builds its tree lazily, on the first query: a one-point query pays for it.
scene.compute_distance(query[:1])
build = time.perf_counter() - t0

# CPU time (every thread of the process): on a shared machine wall time mostly measures waiting.
best = None
for _ in range(3):
    t0 = time.process_time()
    d = scene.compute_distance(query).numpy()
    t = time.process_time() - t0
    best = t if best is None else min(best, t)
t0 = time.process_time()
scene.compute_signed_distance(query)
signed = time.process_time() - t0
print(json.dumps({"buildS": build, "distanceS": best, "signedS": signed, "sum": float(d.astype(np.float64).sum()), "points": len(points)}))
