/** Audit log action types (the wire numbers) with how the log reads them: "<who> <verb> <target>". */
export const AUDIT_ACTIONS: {
  type: number;
  label: string;
  verb: string;
  target: 'guild' | 'channel' | 'user' | 'role' | 'invite' | 'emoji' | 'sticker' | 'other';
}[] = [
  { type: 1, label: 'Update Server', verb: 'updated the server', target: 'guild' },
  { type: 10, label: 'Create Channel', verb: 'created the channel', target: 'channel' },
  { type: 11, label: 'Update Channel', verb: 'updated the channel', target: 'channel' },
  { type: 12, label: 'Delete Channel', verb: 'deleted the channel', target: 'channel' },
  { type: 13, label: 'Create Channel Permissions', verb: 'created permission overwrites on', target: 'channel' },
  { type: 14, label: 'Update Channel Permissions', verb: 'updated permission overwrites on', target: 'channel' },
  { type: 15, label: 'Delete Channel Permissions', verb: 'removed permission overwrites from', target: 'channel' },
  { type: 20, label: 'Kick Member', verb: 'kicked', target: 'user' },
  { type: 21, label: 'Prune Members', verb: 'pruned members', target: 'guild' },
  { type: 22, label: 'Ban Member', verb: 'banned', target: 'user' },
  { type: 23, label: 'Unban Member', verb: 'unbanned', target: 'user' },
  { type: 24, label: 'Update Member', verb: 'updated', target: 'user' },
  { type: 25, label: 'Update Member Roles', verb: 'changed the roles of', target: 'user' },
  { type: 28, label: 'Add Bot', verb: 'added the bot', target: 'user' },
  { type: 30, label: 'Create Role', verb: 'created the role', target: 'role' },
  { type: 31, label: 'Update Role', verb: 'updated the role', target: 'role' },
  { type: 32, label: 'Delete Role', verb: 'deleted the role', target: 'role' },
  { type: 40, label: 'Create Invite', verb: 'created the invite', target: 'invite' },
  { type: 41, label: 'Update Invite', verb: 'updated the invite', target: 'invite' },
  { type: 42, label: 'Delete Invite', verb: 'revoked the invite', target: 'invite' },
  { type: 50, label: 'Create Webhook', verb: 'created a webhook', target: 'other' },
  { type: 51, label: 'Update Webhook', verb: 'updated a webhook', target: 'other' },
  { type: 52, label: 'Delete Webhook', verb: 'deleted a webhook', target: 'other' },
  { type: 60, label: 'Create Emoji', verb: 'added the emoji', target: 'emoji' },
  { type: 61, label: 'Update Emoji', verb: 'updated the emoji', target: 'emoji' },
  { type: 62, label: 'Delete Emoji', verb: 'deleted the emoji', target: 'emoji' },
  { type: 72, label: 'Delete Message', verb: 'deleted a message by', target: 'user' },
  { type: 73, label: 'Bulk Delete Messages', verb: 'bulk deleted messages in', target: 'channel' },
  { type: 74, label: 'Pin Message', verb: 'pinned a message by', target: 'user' },
  { type: 75, label: 'Unpin Message', verb: 'unpinned a message by', target: 'user' },
  { type: 90, label: 'Create Sticker', verb: 'added the sticker', target: 'sticker' },
  { type: 91, label: 'Update Sticker', verb: 'updated the sticker', target: 'sticker' },
  { type: 92, label: 'Delete Sticker', verb: 'deleted the sticker', target: 'sticker' },
  { type: 110, label: 'Create Thread', verb: 'created the thread', target: 'channel' },
  { type: 111, label: 'Update Thread', verb: 'updated the thread', target: 'channel' },
  { type: 112, label: 'Delete Thread', verb: 'deleted the thread', target: 'channel' },
];

export const auditAction = (type: number) => AUDIT_ACTIONS.find((a) => a.type === type);
