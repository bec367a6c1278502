import type { FormEvent, ReactNode } from 'react';
import { readableError } from '../api/errors.js';
import { Button } from './Button.js';
import { Dialog } from './Dialog.js';
import { Banner } from './States.js';

/**
 * A dialog around one form: Cancel and the submit button in its footer, and `error` as a banner under the fields (the
 * caller passes only an error no field already shows).
 */
export function FormDialog({
  id,
  title,
  subtitle,
  submitLabel,
  busy,
  submitDisabled,
  error,
  onSubmit,
  onClose,
  children,
}: {
  /** The form's id, which the footer's submit button names. */
  id: string;
  title: ReactNode;
  subtitle?: ReactNode;
  submitLabel: string;
  busy: boolean;
  /** The submit button is off (a required field is still empty). */
  submitDisabled?: boolean;
  error: unknown;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <Dialog
      title={title}
      subtitle={subtitle}
      onClose={onClose}
      footer={
        <>
          <Button variant="link" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={id} busy={busy} disabled={submitDisabled}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={id} onSubmit={submit}>
        {children}
        {error ? <Banner>{readableError(error)}</Banner> : null}
      </form>
    </Dialog>
  );
}
