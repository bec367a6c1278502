import type { APIUser } from '../api/types.js';

const PALETTE = ['#5865f2', '#3ba55c', '#faa61a', '#ed4245', '#eb459e', '#747f8d', '#1abc9c', '#e67e22'];

/** The user's avatar from the CDN when set, else a colored disc with their initial (stable per user). */
export function Avatar({ user, size = 40, status, ring }: { user?: Partial<APIUser> | null; size?: number; status?: string | null; ring?: string }) {
  const name = user?.global_name || user?.username || '?';
  const color = PALETTE[Number(BigInt(user?.id ?? '0') % BigInt(PALETTE.length))];
  const src = user?.avatar && user.id ? `/avatars/${user.id}/${user.avatar}.png?size=${size * 2}` : null;
  return (
    <span className="avatar" style={{ width: size, height: size, background: color, fontSize: Math.round(size * 0.42) }} aria-hidden>
      {name.charAt(0).toUpperCase()}
      {src ? <img src={src} alt="" onError={(e) => ((e.target as HTMLImageElement).style.display = 'none')} /> : null}
      {status ? (
        <span className={`avatar__status status--${status === 'invisible' ? 'offline' : status}`} style={ring ? { borderColor: ring } : undefined} />
      ) : null}
    </span>
  );
}

export const displayName = (u?: Partial<APIUser> | null) => u?.global_name || u?.username || 'Unknown user';
