import { useId, type ChangeEvent } from 'react';
import { SESSION_EXTENSION } from './sessionFile';
import { GRAPH_DATABASE_EXTENSIONS, MODEL_EXTENSIONS } from '../engine';
import { openFiles } from './files';

/** What the engine reads: models, and graph databases for the graph panel. */
export const ACCEPTED = [...MODEL_EXTENSIONS, ...GRAPH_DATABASE_EXTENSIONS].map((e) => `.${e}`).concat(SESSION_EXTENSION).join(',');

/** A labelled file input; the chosen files are imported and the input is cleared for the next pick. */
export function FilePicker({ label = 'Open files…' }: { label?: string }) {
  const id = useId();
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const files = e.target.files ? [...e.target.files] : [];
    e.target.value = '';
    if (files.length) void openFiles(files);
  };
  return (
    <>
      <label htmlFor={id} className="button primary">
        {label}
      </label>
      <input id={id} className="visually-hidden" type="file" multiple accept={ACCEPTED} data-testid="scene.file-input" onChange={onChange} />
    </>
  );
}
