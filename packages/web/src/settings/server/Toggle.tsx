import { useId } from 'react';

/** A labelled on/off switch (a checkbox with the switch role), with an optional line of help under the label. */
export function Toggle({
  label,
  help,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  help?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (v: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="ss-perm">
      <div className="grow">
        <label htmlFor={id} className="ss-perm__name">
          {label}
        </label>
        {help ? (
          <div className="ss-perm__help" id={`${id}-d`}>
            {help}
          </div>
        ) : null}
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="ss-switch"
        checked={checked}
        disabled={disabled}
        aria-describedby={help ? `${id}-d` : undefined}
        onChange={(e) => onChange(e.target.checked)}
      />
    </div>
  );
}
