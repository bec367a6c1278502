import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../../lib/session.js';
import { useAction } from '../../lib/use-action.js';
import { FormDialog, Icon, TextField } from '../../lib/ui/index.js';

const KINDS = [
  { type: 0, label: 'Text', hint: 'Send messages, images, GIFs, emoji, opinions, and puns', icon: 'hash' },
  { type: 2, label: 'Voice', hint: 'Hang out together with voice, video, and screen share', icon: 'speaker' },
  { type: 15, label: 'Forum', hint: 'Create a space for organized discussions', icon: 'forum' },
  { type: 4, label: 'Category', hint: 'Group channels together', icon: 'chevron' },
];

export function CreateChannelDialog({ guildId, onClose }: { guildId: string; onClose: () => void }) {
  const { api } = useSession();
  const nav = useNavigate();
  const [type, setType] = useState(0);
  const [name, setName] = useState('');
  const { busy, error, run, fieldError } = useAction(async () => {
    const c = await api.guilds.createChannel(guildId, { name: name.trim(), type });
    onClose();
    if (type !== 4 && type !== 2) nav(`/channels/${guildId}/${c.id}`);
  });
  return (
    <FormDialog
      id="create-channel"
      title="Create Channel"
      submitLabel="Create Channel"
      busy={busy}
      submitDisabled={!name.trim()}
      error={fieldError('name') ? null : error}
      onSubmit={() => void run()}
      onClose={onClose}
    >
      <div className="field" role="radiogroup" aria-label="Channel type">
        <span className="field__label">Channel type</span>
        {KINDS.map((k) => (
          <label key={k.type} className={type === k.type ? 'choice choice--on' : 'choice'}>
            <input type="radio" name="type" checked={type === k.type} onChange={() => setType(k.type)} />
            <Icon name={k.icon} />
            <span className="grow">
              <strong>{k.label}</strong>
              <br />
              <span className="muted">{k.hint}</span>
            </span>
          </label>
        ))}
      </div>
      <TextField label="Channel name" value={name} onChange={(e) => setName(e.target.value)} placeholder="new-channel" error={fieldError('name')} required />
    </FormDialog>
  );
}
