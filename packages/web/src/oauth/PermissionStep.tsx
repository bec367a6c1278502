import type { APIUser } from '../lib/api/types.js';
import { PermissionList } from '../lib/oauth/PermissionList.js';
import { permissionsIn } from '../lib/oauth/permissions.js';

/** The bot's permissions in the chosen server: what the app asked for, each of which the person may switch off. */
export function PermissionStep({
  bot,
  appName,
  guildName,
  requested,
  value,
  onChange,
}: {
  bot?: APIUser;
  appName: string;
  guildName: string;
  requested: bigint;
  value: bigint;
  onChange: (v: bigint) => void;
}) {
  const name = bot?.username ?? appName;
  const count = permissionsIn(value).length;
  return (
    <div className="consent__section">
      <div className="consent__label">
        Confirm the permissions of {name} in {guildName}
      </div>
      {requested === 0n ? (
        <div className="consent__empty">
          {name} asks for no permissions. It joins with the permissions your server gives every member, and you can give it a role later.
        </div>
      ) : (
        <>
          <p className="consent__hint">
            {count} of {permissionsIn(requested).length} asked for. Untick anything you do not want to grant; you can change this later in Server Settings →
            Roles.
          </p>
          <div className="consent__perms">
            <PermissionList label={`Permissions for ${name}`} value={value} onChange={onChange} offered={requested} />
          </div>
        </>
      )}
    </div>
  );
}
