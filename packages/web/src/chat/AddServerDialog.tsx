import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { readableError } from '../lib/api/errors.js';
import { useSession } from '../lib/session.js';
import { useAction } from '../lib/use-action.js';
import { Banner, Button, Dialog, TextField } from '../lib/ui/index.js';

/** "Add a Server": create one, or join with an invite link or code. */
export function AddServerDialog({ onClose }: { onClose: () => void }) {
  const { api, store } = useSession();
  const nav = useNavigate();
  const me = store.state.me;
  const [mode, setMode] = useState<'create' | 'join'>('create');
  const [name, setName] = useState(`${me?.global_name ?? me?.username ?? 'My'}'s server`);
  const [link, setLink] = useState('');
  const create = useAction(async () => {
    const g = await api.guilds.create(name.trim());
    onClose();
    nav(`/channels/${g.id}`);
  });
  const join = useAction(async () => {
    const code = link.trim().replace(/\/+$/, '').split('/').pop() ?? '';
    const r = await api.invites.accept(code);
    onClose();
    nav(`/channels/${r.guild?.id ?? '@me'}${r.channel?.id ? `/${r.channel.id}` : ''}`);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void (mode === 'create' ? create.run() : join.run());
  };
  const action = mode === 'create' ? create : join;
  return (
    <Dialog
      title={mode === 'create' ? 'Create a server' : 'Join a server'}
      subtitle={mode === 'create' ? 'Your server is where you and your friends hang out.' : 'Enter an invite below to join an existing server.'}
      onClose={onClose}
      footer={
        <>
          <Button variant="link" onClick={() => setMode(mode === 'create' ? 'join' : 'create')}>
            {mode === 'create' ? 'Have an invite already? Join a server' : 'Create my own instead'}
          </Button>
          <span className="grow" />
          <Button type="submit" form="add-server" busy={action.busy} disabled={mode === 'create' ? !name.trim() : !link.trim()}>
            {mode === 'create' ? 'Create' : 'Join Server'}
          </Button>
        </>
      }
    >
      <form id="add-server" onSubmit={submit}>
        {action.error && !action.fieldError('name') ? (
          <div style={{ marginBottom: 16 }}>
            <Banner>{readableError(action.error)}</Banner>
          </div>
        ) : null}
        {mode === 'create' ? (
          <TextField label="Server name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} error={create.fieldError('name')} required />
        ) : (
          <TextField
            label="Invite link"
            value={link}
            placeholder={`${location.origin}/invite/hTKzmak`}
            onChange={(e) => setLink(e.target.value)}
            required
            hint="Invites look like hTKzmak or an /invite/ link."
          />
        )}
      </form>
    </Dialog>
  );
}
