/** A small set of line icons drawn on a 24-px grid (stroke follows currentColor). */
const PATHS: Record<string, string> = {
  hash: 'M10 3 8 21M16 3l-2 18M4 8h17M3 16h17',
  mic: 'M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zM19 11a7 7 0 0 1-14 0M12 18v3',
  headphones: 'M4 18v-6a8 8 0 0 1 16 0v6M4 15h3v5H4zM17 15h3v5h-3z',
  phone: 'M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z',
  phoneOff: 'M3 14.5c5-4.7 13-4.7 18 0l-2.5 2.5-3.5-1.5v-2.3a12 12 0 0 0-6 0v2.3L5.5 17 3 14.5z',
  speaker: 'M11 5 6 9H3v6h3l5 4V5zM15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13',
  forum: 'M4 5h16v10H8l-4 4V5zM8 9h8M8 12h5',
  thread: 'M5 4h14v12H9l-4 4V4zM12 8v4M10 10h4',
  megaphone: 'M3 10v4h3l8 5V5L6 10H3zM18 9a3 3 0 0 1 0 6',
  plus: 'M12 5v14M5 12h14',
  x: 'M6 6l12 12M18 6 6 18',
  chevron: 'M6 9l6 6 6-6',
  gear: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
  pin: 'M9 4h6l-1 5 4 4H6l4-4-1-5zM12 13v7',
  reply: 'M10 9V5l-7 7 7 7v-4.1c5 0 8.5 1.6 11 5.1-1-5-4-10-11-11z',
  edit: 'M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4',
  trash: 'M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3',
  smile: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM8 14s1.5 2 4 2 4-2 4-2M9 9h.01M15 9h.01',
  users: 'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM22 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8',
  at: 'M16 12a4 4 0 1 1-8 0 4 4 0 0 1 8 0zM16 12v1.5a2.5 2.5 0 0 0 5 0V12a9 9 0 1 0-3.5 7.1',
  upload: 'M12 16V4M7 9l5-5 5 5M4 20h16',
  paperclip: 'M21 11l-9 9a5 5 0 0 1-7-7l9-9a3.5 3.5 0 0 1 5 5l-9 9a2 2 0 0 1-3-3l8-8',
  micOff: 'M3 3l18 18M9 9v3a3 3 0 0 0 5 2.2M15 10V5a3 3 0 0 0-5.7-1.3M19 11a7 7 0 0 1-1.3 4M5 11a7 7 0 0 0 11 5.7M12 19v3',
  headphonesOff: 'M3 3l18 18M4 18v-6a8 8 0 0 1 12.5-6.6M20 12v6M4 15h3v5H4zM17 15h3v5h-3z',
  check: 'M5 12l5 5L20 7',
  lock: 'M6 11h12v10H6zM8 11V7a4 4 0 0 1 8 0v4',
  eye: 'M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  link: 'M10 14a5 5 0 0 0 7 0l3-3a5 5 0 0 0-7-7l-1 1M14 10a5 5 0 0 0-7 0l-3 3a5 5 0 0 0 7 7l1-1',
  external: 'M14 4h6v6M20 4l-9 9M18 14v6H4V6h6',
  bot: 'M12 3v3M5 8h14v11H5zM9 13h.01M15 13h.01M2 12v4M22 12v4',
  home: 'M3 11l9-8 9 8M5 10v10h14V10',
  compass: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM15.5 8.5l-2 5-5 2 2-5 5-2z',
  store: 'M4 7h16l-1 4H5L4 7zM5 11v9h14v-9M9 20v-5h6v5M6 7l2-4h8l2 4',
  slash: 'M16 3 8 21',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  warn: 'M12 3l10 18H2L12 3zM12 10v4M12 17h.01',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM21 21l-5-5',
  poll: 'M5 20V10M12 20V4M19 20v-7',
  file: 'M14 3H6v18h12V7l-4-4zM14 3v4h4',
  logout: 'M15 3h4v18h-4M10 17l5-5-5-5M15 12H3',
  code: 'M8 8l-4 4 4 4M16 8l4 4-4 4',
  menu: 'M4 6h16M4 12h16M4 18h16',
};

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 20, className, title }: { name: IconName | string; size?: number; className?: string; title?: string }) {
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
      className={className}
      aria-hidden={title ? undefined : true}
      role={title ? 'img' : undefined}
    >
      {title ? <title>{title}</title> : null}
      <path d={PATHS[name] ?? PATHS.hash} />
    </svg>
  );
}
