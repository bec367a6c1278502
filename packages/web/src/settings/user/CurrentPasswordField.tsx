import { TextField } from '../../lib/ui/index.js';

/** The account's current password, which the platform asks for with every account change. */
export function CurrentPasswordField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error: string | null | undefined }) {
  return (
    <TextField
      label="Current Password"
      type="password"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      required
      autoComplete="current-password"
    />
  );
}
