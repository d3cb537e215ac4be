import { isGraphDatabaseName } from '../engine';
import { importFiles } from './bodies';
import { queryGraphFile } from './graphActions';

/** Files from a drop or the picker: graph databases go to the graph panel, everything else into the scene. */
export async function openFiles(files: readonly File[]): Promise<void> {
  const graphs = files.filter((f) => isGraphDatabaseName(f.name));
  const models = files.filter((f) => !isGraphDatabaseName(f.name));
  await Promise.all([models.length ? importFiles(models) : Promise.resolve(), ...graphs.map((f) => queryGraphFile(f))]);
}

