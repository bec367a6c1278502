import { useState, type FormEvent } from 'react';
import type { APIUser } from '../../lib/api/types.js';
import { readableError } from '../../lib/api/errors.js';
import { useAction } from '../../lib/use-action.js';
import { Banner, Button, Dialog, TextField } from '../../lib/ui/index.js';

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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(nick.trim() || null);
  };
  return (
    <Dialog
      title={self ? 'Change Nickname' : `Change ${user.global_name ?? user.username}'s Nickname`}
      onClose={onClose}
      footer={
        <>
          <Button variant="link" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="nickname-form" busy={save.busy}>
            Save
          </Button>
        </>
      }
    >
      <form id="nickname-form" onSubmit={submit}>
        <TextField
          label="Nickname"
          value={nick}
          maxLength={32}
          placeholder={user.global_name ?? user.username}
          onChange={(e) => setNick(e.target.value)}
          error={save.fieldError('nick')}
        />
        {current ? (
          <Button variant="link" size="sm" onClick={() => void save.run(null)}>
            Reset Nickname
          </Button>
        ) : null}
        {save.error && !save.fieldError('nick') ? <Banner>{readableError(save.error)}</Banner> : null}
      </form>
    </Dialog>
  );
}
