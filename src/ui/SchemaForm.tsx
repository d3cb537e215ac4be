import { useId } from 'react';
import { placeholderOf, type FieldSpec, type FieldValue, type FormValues } from './schemaForm';
import type { BodyEntry } from './stores';
import { kindLabel } from './format';

interface FormProps {
  fields: readonly FieldSpec[];
  values: FormValues;
  bodies: readonly BodyEntry[];
  /** Paths an INVALID_ARGUMENT error names: marked invalid. */
  invalid: ReadonlySet<string>;
  onChange: (path: string, value: FieldValue) => void;
  /** The id of the element describing the current error, for aria-describedby. */
  errorId?: string | undefined;
}

/** The label line: name, required marker, description. */
function FieldHead({ field, htmlFor }: { field: FieldSpec; htmlFor?: string }) {
  return (
    <>
      <label className="field-label" htmlFor={htmlFor}>
        {field.label}
        {field.required && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
    </>
  );
}

function Field({ field, values, bodies, invalid, onChange, errorId }: FormProps & { field: FieldSpec }) {
  const id = useId();
  const descId = `${id}-desc`;
  const value = values[field.path];
  const isInvalid = invalid.has(field.path);
  const describedBy = [field.description ? descId : '', isInvalid && errorId ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const common = { id, 'aria-invalid': isInvalid || undefined, 'aria-describedby': describedBy, 'data-field': field.path, 'aria-required': field.required || undefined };
  const description = field.description ? (
    <p className="field-desc" id={descId}>
      {field.description}
    </p>
  ) : null;
  const text = typeof value === 'string' ? value : '';

  switch (field.kind) {
    case 'object':
      return (
        <fieldset className="field-group">
          <legend>{field.label}</legend>
          {description}
          {field.fields.map((f) => (
            <Field key={f.path} field={f} values={values} bodies={bodies} invalid={invalid} onChange={onChange} errorId={errorId} fields={[]} />
          ))}
        </fieldset>
      );
    case 'boolean': {
      const checked = typeof value === 'boolean' ? value : field.defaultValue === true;
      return (
        <div className={`field field-check${isInvalid ? ' invalid' : ''}`}>
          <input type="checkbox" {...common} checked={checked} onChange={(e) => onChange(field.path, e.target.checked)} />
          <FieldHead field={field} htmlFor={id} />
          {field.defaultValue !== undefined && <span className="hint"> (default {String(field.defaultValue)})</span>}
          {description}
        </div>
      );
    }
    case 'enumList': {
      const chosen = Array.isArray(value) ? (value as string[]) : [];
      return (
        <fieldset className={`field field-group${isInvalid ? ' invalid' : ''}`} aria-describedby={describedBy} data-field={field.path}>
          <legend>
            {field.label} <span className="hint">(none checked = {field.defaultValue !== undefined ? JSON.stringify(field.defaultValue) : 'the default'})</span>
          </legend>
          {description}
          <div className="checks">
            {field.options.map((o) => (
              <label key={o} className="check">
                <input
                  type="checkbox"
                  checked={chosen.includes(o)}
                  onChange={(e) => onChange(field.path, e.target.checked ? [...chosen, o] : chosen.filter((c) => c !== o))}
                />
                {o}
              </label>
            ))}
          </div>
        </fieldset>
      );
    }
    case 'vec3': {
      const xyz = Array.isArray(value) && value.length === 3 ? (value as [string, string, string]) : (['', '', ''] as [string, string, string]);
      return (
        <fieldset className={`field field-group${isInvalid ? ' invalid' : ''}`} aria-describedby={describedBy} data-field={field.path}>
          <legend>
            {field.label}
            {field.required ? ' *' : ''}
          </legend>
          {description}
          <div className="vec3">
            {(['x', 'y', 'z'] as const).map((axis, i) => (
              <input
                key={axis}
                type="text"
                inputMode="decimal"
                aria-label={`${field.label} ${axis}`}
                placeholder={axis}
                aria-invalid={isInvalid || undefined}
                value={xyz[i]}
                onChange={(e) => {
                  const next = [...xyz] as [string, string, string];
                  next[i] = e.target.value;
                  onChange(field.path, next);
                }}
              />
            ))}
          </div>
        </fieldset>
      );
    }
    case 'bodyId':
      return (
        <div className={`field${isInvalid ? ' invalid' : ''}`}>
          <FieldHead field={field} htmlFor={id} />
          <select {...common} value={text} onChange={(e) => onChange(field.path, e.target.value)}>
            <option value="">{field.required ? 'choose a body' : `none (${placeholderOf(field)})`}</option>
            {bodies.map((b) => (
              <option key={b.bodyId} value={b.bodyId}>
                {b.bodyId} ({kindLabel(b.summary.kind)})
              </option>
            ))}
            {text && !bodies.some((b) => b.bodyId === text) && <option value={text}>{text} (not in the scene)</option>}
          </select>
          {description}
        </div>
      );
    case 'enum':
      return (
        <div className={`field${isInvalid ? ' invalid' : ''}`}>
          <FieldHead field={field} htmlFor={id} />
          <select {...common} value={text} onChange={(e) => onChange(field.path, e.target.value)}>
            <option value="">{field.required ? 'choose…' : placeholderOf(field)}</option>
            {field.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
            {text && !field.options.includes(text) && <option value={text}>{text} (not an option)</option>}
          </select>
          {description}
        </div>
      );
    default: {
      const numeric = field.kind === 'number';
      const range = numeric ? [field.min !== undefined ? `≥ ${field.min}` : '', field.max !== undefined ? `≤ ${field.max}` : ''].filter(Boolean).join(', ') : '';
      const hint = range ? `, ${range}` : '';
      return (
        <div className={`field${isInvalid ? ' invalid' : ''}`}>
          <FieldHead field={field} htmlFor={id} />
          <input
            type="text"
            {...common}
            inputMode={numeric ? (field.integer ? 'numeric' : 'decimal') : undefined}
            placeholder={`${placeholderOf(field)}${hint}`}
            value={text}
            onChange={(e) => onChange(field.path, e.target.value)}
          />
          {description}
        </div>
      );
    }
  }
}

/** A tool's arguments as form fields, one per schema property. */
export function SchemaForm(props: FormProps) {
  return (
    <div className="schema-form">
      {props.fields.map((f) => (
        <Field key={f.path} {...props} field={f} />
      ))}
    </div>
  );
}
