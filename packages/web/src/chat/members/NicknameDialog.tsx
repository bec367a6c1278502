import { useState } from 'react';
import type { APIUser } from '../../lib/api/types.js';
import { useAction } from '../../lib/use-action.js';
import { Button, FormDialog, TextField } from '../../lib/ui/index.js';

/** A nickname for this server: the person's own (CHANGE_NICKNAME) or a member's (MANAGE_NICKNAMES); empty resets it. */
export function NicknameDialog({
  user,
  current,
  self,
  save: send,
  onClose,
}: {
  user: APIUser;
  current: string | null;
  self: boolean;
  save: (nick: string | null) => Promise<unknown>;
  onClose: () => void;
}) {
  const [nick, setNick] = useState(current ?? '');
  const save = useAction(async (value: string | null) => {
    await send(value);
    onClose();
  });
  const own = save.fieldError('nick');
  return (
    <FormDialog
      id="nickname-form"
      title={self ? 'Change Nickname' : `Change ${user.global_name ?? user.username}'s Nickname`}
      submitLabel="Save"
      busy={save.busy}
      error={own ? null : save.error}
      onSubmit={() => void save.run(nick.trim() || null)}
      onClose={onClose}
    >
      <TextField
        label="Nickname"
        value={nick}
        maxLength={32}
        placeholder={user.global_name ?? user.username}
        onChange={(e) => setNick(e.target.value)}
        error={own}
      />
      {current ? (
        <Button variant="link" size="sm" onClick={() => void save.run(null)}>
          Reset Nickname
        </Button>
      ) : null}
    </FormDialog>
  );
}
