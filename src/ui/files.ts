import { isGraphDatabaseName } from '../engine';
import { importFiles } from './bodies';
import { queryGraphFile } from './graphActions';
import { isSessionFileName, openSession } from './sessionFile';

/** Files from a drop or the picker: graph databases go to the graph panel, everything else into the scene. */
export async function openFiles(files: readonly File[]): Promise<void> {
  const graphs = files.filter((f) => isGraphDatabaseName(f.name));
  // A .brepscope session brings its own files, placements and settings.
  const sessions = files.filter((f) => isSessionFileName(f.name));
  const models = files.filter((f) => !isGraphDatabaseName(f.name) && !isSessionFileName(f.name));
  await Promise.all([
    models.length ? importFiles(models) : Promise.resolve(),
    ...graphs.map((f) => queryGraphFile(f)),
    ...sessions.map(async (f) => openSession(f.name, new Uint8Array(await f.arrayBuffer()))),
  ]);
}

