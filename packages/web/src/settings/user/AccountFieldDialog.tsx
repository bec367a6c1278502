import { useState } from 'react';
import { useSession } from '../../lib/session.js';
import { useAction } from '../../lib/use-action.js';
import { FormDialog, TextField } from '../../lib/ui/index.js';
import { userSettingsApi } from './api.js';
import { CurrentPasswordField } from './CurrentPasswordField.js';

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
  const own = save.fieldError(field);
  const pw = save.fieldError('password');
  return (
    <FormDialog
      id="account-field"
      title={words.title}
      subtitle={words.sub}
      submitLabel="Done"
      busy={save.busy}
      error={own || pw ? null : save.error}
      onSubmit={() => void save.run()}
      onClose={onClose}
    >
      <TextField label={words.label} type={words.type} value={value} onChange={(e) => setValue(e.target.value)} error={own} required autoComplete={field} />
      <CurrentPasswordField value={password} onChange={setPassword} error={pw} />
    </FormDialog>
  );
}
