import { useState } from 'react';
import { twemojiUrl } from './twemoji.js';

/** A Unicode emoji as its Twemoji image; the character itself if Twemoji has no image for it (newer emoji). */
export function Twemoji({ emoji, className, title }: { emoji: string; className?: string; title?: string }) {
  const [broken, setBroken] = useState(false);
  const cls = ['emoji', className].filter(Boolean).join(' ');
  if (broken) return <span className={`${cls} emoji--unicode`}>{emoji}</span>;
  return <img className={cls} src={twemojiUrl(emoji)} alt={emoji} title={title} draggable={false} loading="lazy" onError={() => setBroken(true)} />;
}

/** A custom emoji from the CDN. */
export const customEmojiUrl = (id: string, animated?: boolean, size = 48) => `/emojis/${id}.${animated ? 'gif' : 'webp'}?size=${size}`;
