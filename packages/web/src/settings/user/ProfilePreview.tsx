import type { APIUser } from '../../lib/api/types.js';
import { Avatar, displayName } from '../../lib/ui/index.js';

/** A banner color as CSS: the person's accent color, or the default accent. */
export const bannerColor = (c: number | null | undefined) => (c == null ? 'var(--accent)' : `#${c.toString(16).padStart(6, '0')}`);

/** How others will see the profile being edited: banner color, avatar (a picked file before it is saved), names, about me. */
export function ProfilePreview({ user, avatarSrc, bio, accent }: { user: APIUser; avatarSrc?: string | null; bio: string; accent: number | null }) {
  return (
    <div className="usettings__preview profile-card" aria-label="Profile preview" role="group">
      <div className="profile__banner" style={{ background: bannerColor(accent) }} />
      <span className="profile__avatar">
        {avatarSrc ? (
          <img src={avatarSrc} alt="" width={80} height={80} />
        ) : (
          <Avatar user={{ ...user, avatar: avatarSrc === null ? null : user.avatar }} size={80} />
        )}
      </span>
      <div className="profile__body">
        <div className="profile__name">{displayName(user)}</div>
        <div className="muted">{user.username}</div>
        {bio ? (
          <>
            <div className="usettings__label">About Me</div>
            <p className="usettings__bio">{bio}</p>
          </>
        ) : null}
      </div>
    </div>
  );
}
