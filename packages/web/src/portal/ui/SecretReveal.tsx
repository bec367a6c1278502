import { Banner } from '../../lib/ui/index.js';
import { CopyField } from './CopyField.js';

/** A secret shown once, right after it was made: copy it now, it is never shown again. */
export function SecretReveal({ label, value }: { label: string; value: string }) {
  return (
    <div className="secret">
      <CopyField label={label} value={value} />
      <Banner kind="warn">Copy it now: for your security it is shown only once. If you lose it, reset it again.</Banner>
    </div>
  );
}
