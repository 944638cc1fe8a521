import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from "react";

interface Labelled {
  label: string;
  hint?: ReactNode;
}

/** A control with its label (`for` its id) and hint (read with it, through aria-describedby). */
function Field({ label, hint, children }: Labelled & { children: (ids: { id: string; "aria-describedby"?: string }) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-ayuda`;
  return (
    <div className="campo">
      <label className="campo__etiqueta" htmlFor={id}>
        {label}
      </label>
      {children(hint ? { id, "aria-describedby": hintId } : { id })}
      {hint && (
        <span className="campo__ayuda" id={hintId}>
          {hint}
        </span>
      )}
    </div>
  );
}

export function TextField({ label, hint, ...input }: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field label={label} hint={hint}>
      {(ids) => <input className="control" {...input} {...ids} />}
    </Field>
  );
}

export function TextAreaField({ label, hint, ...input }: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Field label={label} hint={hint}>
      {(ids) => <textarea className="control" rows={3} {...input} {...ids} />}
    </Field>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({
  label,
  hint,
  options,
  ...select
}: Labelled & { options: Option[] } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Field label={label} hint={hint}>
      {(ids) => (
        <select className="control" {...select} {...ids}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function CheckboxField({ label, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="casilla">
      <input type="checkbox" {...input} />
      <span>{label}</span>
    </label>
  );
}
