import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** A labelled input. The error replaces nothing: it is appended to the label, as the official client does. */
export function Field({
  label,
  error,
  hint,
  required,
  children,
}: {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  required?: boolean;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className={error ? 'field__label field__label--error' : 'field__label'}>
        {label}
        {required ? <span aria-hidden> *</span> : null}
        {error ? <em> - {error}</em> : null}
      </label>
      {children(id)}
      {hint ? <div className="field__hint">{hint}</div> : null}
    </div>
  );
}

export function TextField({
  label,
  error,
  hint,
  required,
  ...input
}: { label: string; error?: string | null; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field label={label} error={error} hint={hint} required={required}>
      {(id) => <input id={id} className="input" aria-invalid={error ? true : undefined} required={required} {...input} />}
    </Field>
  );
}
