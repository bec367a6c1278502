import { useId, type ReactNode } from 'react';

/** A labelled on/off switch row, with an optional description under the label. */
export function Switch({
  label,
  description,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  description?: ReactNode;
  checked: boolean;
  onChange: (v: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="switch-row">
      <div className="grow">
        <label className="switch-row__label" htmlFor={id}>
          {label}
        </label>
        {description ? <div className="switch-row__desc">{description}</div> : null}
      </div>
      <button id={id} type="button" role="switch" aria-checked={checked} className="switch" disabled={disabled} onClick={() => onChange(!checked)}>
        <span className="switch__knob" />
      </button>
    </div>
  );
}
