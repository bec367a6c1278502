import { useState, type FormEvent } from 'react';
import { useSession } from '../../lib/session.js';
import { useAction } from '../../lib/use-action.js';
import { readableError } from '../../lib/api/errors.js';
import { Banner, Button, Dialog, TextField } from '../../lib/ui/index.js';
import { userSettingsApi } from './api.js';

const WORDS = {
  username: { title: 'Change your username', sub: 'Enter a new username and your existing password.', label: 'Username', type: 'text' },
  email: { title: 'Change your email', sub: 'Enter a new email address and your existing password.', label: 'Email', type: 'email' },
} as const;

/** A username or an email change: the platform asks for the current password with either. */
export function AccountFieldDialog({ field, current, onClose }: { field: 'username' | 'email'; current: string; onClose: () => void }) {
  const { api, store } = useSession();
  const [value, setValue] = useState(current);
  const [password, setPassword] = useState('');
  const words = WORDS[field];
  const save = useAction(async () => {
    const me = await userSettingsApi(api).editAccount({ [field]: value.trim(), password });
    if (store.state.me) store.set({ me: { ...store.state.me, ...me } });
    onClose();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  const own = save.fieldError(field);
  const pw = save.fieldError('password');
  return (
    <Dialog
      title={words.title}
      subtitle={words.sub}
      onClose={onClose}
      footer={
        <>
          <Button variant="link" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="account-field" busy={save.busy}>
            Done
          </Button>
        </>
      }
    >
      <form id="account-field" onSubmit={submit}>
        <TextField label={words.label} type={words.type} value={value} onChange={(e) => setValue(e.target.value)} error={own} required autoComplete={field} />
        <TextField
          label="Current Password"
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={pw}
          required
          autoComplete="current-password"
        />
        {save.error && !own && !pw ? <Banner>{readableError(save.error)}</Banner> : null}
      </form>
    </Dialog>
  );
}
