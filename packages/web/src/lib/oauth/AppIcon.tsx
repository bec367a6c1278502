import './shared.css';

const PALETTE = ['#5865f2', '#3ba55c', '#eb459e', '#faa61a', '#1abc9c', '#e67e22', '#9b59b6', '#ed4245'];

/** An application's icon from the CDN, or its initials on a color picked from its id (stable per app). */
export function AppIcon({ app, size = 64, radius }: { app: { id: string; name: string; icon?: string | null }; size?: number; radius?: number }) {
  const initials =
    app.name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?';
  const color = PALETTE[Number(BigInt(/^\d+$/.test(app.id) ? app.id : '0') % BigInt(PALETTE.length))];
  const style = { width: size, height: size, borderRadius: radius ?? Math.round(size * 0.3), background: color, fontSize: Math.round(size * 0.36) };
  return (
    <span className="app-icon" style={style} aria-hidden>
      {app.icon ? <img src={`/app-icons/${app.id}/${app.icon}.png?size=${size * 2}`} alt="" /> : initials}
    </span>
  );
}
