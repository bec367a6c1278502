import { readableError } from '../../lib/api/errors.js';
import { Button } from '../../lib/ui/index.js';

/** "Careful, you have unsaved changes": appears while a form differs from the saved application. */
export function SaveBar({ form }: { form: { dirty: boolean; reset: () => void; save: { busy: boolean; error: unknown; run: () => Promise<void> } } }) {
  if (!form.dirty && !form.save.error) return null;
  const error = form.save.error ? readableError(form.save.error) : null;
  return (
    <div className={error ? 'savebar savebar--error' : 'savebar'} role={error ? 'alert' : 'status'}>
      <span className="grow">{error ?? 'Careful — you have unsaved changes!'}</span>
      <Button variant="link" onClick={form.reset} disabled={form.save.busy}>
        Reset
      </Button>
      <Button variant="success" busy={form.save.busy} onClick={() => void form.save.run()} disabled={!form.dirty}>
        Save Changes
      </Button>
    </div>
  );
}
