import { I } from '@accord/protocol';
import type { Session } from './session.js';

const CONTENT_EVENTS = new Set(['MESSAGE_CREATE', 'MESSAGE_UPDATE', 'AUTO_MODERATION_ACTION_EXECUTION']);

/**
 * Without MESSAGE_CONTENT a bot sees messages blanked, except its own, DMs, and messages that mention it.
 * Returns the view key for a session (sessions sharing a key share one serialized payload).
 */
export function messageView(t: string, d: any, s: Session): 'full' | 'blank' {
  if (!CONTENT_EVENTS.has(t) || !s.isBot || s.intents & I.MESSAGE_CONTENT) return 'full';
  if (!d?.guild_id) return 'full';
  if (d.author?.id === s.userId) return 'full';
  if (Array.isArray(d.mentions) && d.mentions.some((u: any) => u?.id === s.userId)) return 'full';
  return 'blank';
}

export function blankMessage(d: any): any {
  if (d && 'rule_trigger_type' in d) return { ...d, content: '', matched_content: null }; // AutoMod executions
  const out = { ...d, content: '', embeds: [], attachments: [], components: [] };
  if ('poll' in out) delete out.poll;
  if (out.message_snapshots)
    out.message_snapshots = out.message_snapshots.map((sn: any) => ({ message: { ...sn.message, content: '', embeds: [], attachments: [], components: [] } }));
  return out;
}
