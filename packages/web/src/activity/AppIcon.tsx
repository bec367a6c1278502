import { initials } from '../chat/GuildRail.js';

const PALETTE = ['#5865f2', '#3ba55c', '#eb459e', '#faa61a', '#1abc9c', '#e67e22'];

/** An app's icon: its image when the CDN has one, else its initials on a tile of a color stable per app. */
export function AppIcon({ app, size = 32 }: { app: { id: string; name: string; icon: string | null }; size?: number }) {
  const color = PALETTE[Number(BigInt(app.id || '0') % BigInt(PALETTE.length))];
  return (
    <span
      className="act-appicon"
      style={{ width: size, height: size, background: color, fontSize: Math.round(size * 0.38), borderRadius: Math.round(size * 0.28) }}
      aria-hidden
    >
      {initials(app.name).slice(0, 2)}
      {app.icon ? (
        <img src={`/app-icons/${app.id}/${app.icon}.png?size=${size * 2}`} alt="" onError={(e) => ((e.target as HTMLImageElement).style.display = 'none')} />
      ) : null}
    </span>
  );
}

/** The Activities glyph (a rocket), drawn like the kit's line icons. */
export function RocketIcon({ size = 20 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
    >
      <path d="M5 15c-1.5 1.3-2 4-2 6 2 0 4.7-.5 6-2M9 12a22 22 0 0 1 4-7.5C15.5 2.5 19 2 21 3c1 2 .5 5.5-1.5 8A22 22 0 0 1 12 15zM9 12H5l2-4h4M12 15v4l4-2v-4M15 9.5a1 1 0 1 0 0-.01" />
    </svg>
  );
}
