import '../../lib/oauth/shared.css';
import type { ReactNode } from 'react';

/** A checkbox with its label (and an optional description), in the portal's look. */
export function Checkbox({
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
  return (
    <label className={description ? 'checkbox-row checkbox-row--block' : 'checkbox-row'}>
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span>
        <span className="checkbox-row__label">{label}</span>
        {description ? <span className="checkbox-row__desc">{description}</span> : null}
      </span>
    </label>
  );
}
