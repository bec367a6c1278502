import { isThread, isVoice, type Channel } from '../../lib/api/types.js';
import type { GuildState } from '../../lib/state/store.js';

/** The sidebar's order: uncategorized first, then each category; text-like before voice; by position, then id. */
export interface Category {
  category: Channel | null;
  channels: { channel: Channel; threads: Channel[] }[];
}

const byPosition = (a: Channel, b: Channel) => (a.position ?? 0) - (b.position ?? 0) || a.id.length - b.id.length || (a.id < b.id ? -1 : 1);
const voiceLast = (a: Channel, b: Channel) => Number(isVoice(a.type)) - Number(isVoice(b.type)) || byPosition(a, b);

export function channelTree(g: GuildState): Category[] {
  const all = [...g.channels.values()];
  const threads = all.filter((c) => isThread(c.type) && !c.thread_metadata?.archived);
  const top = all.filter((c) => !isThread(c.type) && c.type !== 4);
  const categories = all.filter((c) => c.type === 4).sort(byPosition);
  const withThreads = (c: Channel) => ({ channel: c, threads: threads.filter((t) => t.parent_id === c.id).sort((a, b) => (a.id < b.id ? -1 : 1)) });
  const tree: Category[] = [
    {
      category: null,
      channels: top
        .filter((c) => !c.parent_id || !g.channels.has(c.parent_id))
        .sort(voiceLast)
        .map(withThreads),
    },
  ];
  for (const cat of categories)
    tree.push({
      category: cat,
      channels: top
        .filter((c) => c.parent_id === cat.id)
        .sort(voiceLast)
        .map(withThreads),
    });
  return tree;
}

/** Where /channels/{guild} lands: the system channel if it is text, else the first text channel in sidebar order. */
export function firstTextChannel(g: GuildState): string | null {
  const sys = g.systemChannelId ? g.channels.get(g.systemChannelId) : undefined;
  if (sys && (sys.type === 0 || sys.type === 5)) return sys.id;
  for (const cat of channelTree(g)) for (const { channel } of cat.channels) if (!isVoice(channel.type)) return channel.id;
  return null;
}

export function channelIcon(type: number): string {
  switch (type) {
    case 2:
    case 13:
      return 'speaker';
    case 5:
      return 'megaphone';
    case 15:
    case 16:
      return 'forum';
    case 10:
    case 11:
    case 12:
      return 'thread';
    default:
      return 'hash';
  }
}
