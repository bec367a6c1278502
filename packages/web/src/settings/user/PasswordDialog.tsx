import { useState } from 'react';
import { useSession } from '../../lib/session.js';
import { useAction } from '../../lib/use-action.js';
import { FormDialog, TextField, toast } from '../../lib/ui/index.js';
import { userSettingsApi } from './api.js';
import { CurrentPasswordField } from './CurrentPasswordField.js';

/**
 * A password change: the current password, then the new one twice. The platform revokes every token of the account
 * and answers with a new one, which this session takes over (the other devices are logged out).
 */
export function PasswordDialog({ onClose }: { onClose: () => void }) {
  const { api, swapToken } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const save = useAction(async () => {
    await swapToken(async () => (await userSettingsApi(api).changePassword(current, next)).token!);
    toast('Your password was changed.');
    onClose();
  });
  const submit = () => {
    setMismatch(next !== again);
    if (next === again) void save.run();
  };
  const pw = save.fieldError('password');
  const np = save.fieldError('new_password');
  return (
    <FormDialog
      id="password-change"
      title="Update your password"
      subtitle="Enter your current password and a new password."
      submitLabel="Done"
      busy={save.busy}
      error={pw || np ? null : save.error}
      onSubmit={submit}
      onClose={onClose}
    >
      <CurrentPasswordField value={current} onChange={setCurrent} error={pw} />
      <TextField
        label="New Password"
        type="password"
        value={next}
        onChange={(e) => setNext(e.target.value)}
        error={np}
        required
        minLength={8}
        maxLength={72}
        autoComplete="new-password"
      />
      <TextField
        label="Confirm New Password"
        type="password"
        value={again}
        onChange={(e) => setAgain(e.target.value)}
        error={mismatch ? 'Passwords do not match' : null}
        required
        autoComplete="new-password"
      />
    </FormDialog>
  );
}
