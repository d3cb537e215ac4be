import { useId, type ChangeEvent } from 'react';
import { openFiles } from './inspect';

export const ACCEPTED = '.step,.stp,.iges,.igs,.brep,.brp,.stl,.ply,.obj,.3mf,.xyz,.pts,.txt,.csv,.xbf,.sqlite,.sqlite3,.db';

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
      <input id={id} className="visually-hidden" type="file" multiple accept={ACCEPTED} data-testid="file-input" onChange={onChange} />
    </>
  );
}
