import { useState } from 'react';
import { readableError } from '../../lib/api/errors.js';
import { useAction } from '../../lib/use-action.js';
import { Avatar, Banner, Button } from '../../lib/ui/index.js';
import { useAppForm, useOpenApp } from '../context.js';
import { AppFlag } from '../types.js';
import { ConfirmDialog } from '../ui/ConfirmDialog.js';
import { SaveBar } from '../ui/SaveBar.js';
import { SecretReveal } from '../ui/SecretReveal.js';
import { PageHead, Section } from '../ui/Section.js';
import { Switch } from '../ui/Switch.js';

interface BotSettings {
  botPublic: boolean;
  codeGrant: boolean;
  presence: boolean;
  members: boolean;
  content: boolean;
}

const INTENTS = [
  {
    key: 'presence',
    flag: AppFlag.GATEWAY_PRESENCE_LIMITED,
    label: 'Presence Intent',
    description: "Receive members' online status and activities (PRESENCE_UPDATE, presences in GUILD_CREATE).",
  },
  {
    key: 'members',
    flag: AppFlag.GATEWAY_GUILD_MEMBERS_LIMITED,
    label: 'Server Members Intent',
    description: 'Receive member joins, updates and leaves, and request the full member list.',
  },
  {
    key: 'content',
    flag: AppFlag.GATEWAY_MESSAGE_CONTENT_LIMITED,
    label: 'Message Content Intent',
    description: 'Read the content, embeds, attachments and components of messages that do not mention your bot.',
  },
] as const;

/** The bot: its token (shown once, after a reset), who may add it, and the privileged intents. */
export function BotPage() {
  const { app, api } = useOpenApp();
  const form = useAppForm<BotSettings>(
    (a) => ({
      botPublic: a.bot_public,
      codeGrant: a.bot_require_code_grant,
      presence: (a.flags & AppFlag.GATEWAY_PRESENCE_LIMITED) !== 0,
      members: (a.flags & AppFlag.GATEWAY_GUILD_MEMBERS_LIMITED) !== 0,
      content: (a.flags & AppFlag.GATEWAY_MESSAGE_CONTENT_LIMITED) !== 0,
    }),
    (d) => {
      let flags = app.flags;
      for (const i of INTENTS) flags = d[i.key] ? flags | i.flag : flags & ~i.flag;
      return { bot_public: d.botPublic, bot_require_code_grant: d.codeGrant, flags };
    },
  );
  const [confirming, setConfirming] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const reset = useAction(async () => {
    setToken((await api.resetBotToken(app.id)).token);
    setConfirming(false);
  });
  const { draft } = form;
  const bot = app.bot;

  return (
    <>
      <PageHead title="Bot">Your app's bot user: it connects to the Gateway with its token and acts in the servers it joined.</PageHead>
      <Section title="Bot user">
        <div className="bot-card">
          {bot ? <Avatar user={bot} size={64} /> : null}
          <div className="grow">
            <div className="bot-card__name">
              {bot?.username ?? app.name} <span className="tag">Bot</span>
            </div>
            <div className="muted">
              ID {bot?.id ?? '—'} · in {app.approximate_guild_count} server{app.approximate_guild_count === 1 ? '' : 's'}
            </div>
          </div>
        </div>
      </Section>
      <Section
        title="Token"
        description="Your bot's password. For security it is shown only once, right after a reset; never share it or commit it."
        actions={<Button onClick={() => setConfirming(true)}>Reset Token</Button>}
      >
        {token ? (
          <SecretReveal label="Bot token" value={token} />
        ) : (
          <div className="p-muted-box">Hidden. Reset it to get a new one; the old token stops working at once.</div>
        )}
        {reset.error ? <Banner>{readableError(reset.error)}</Banner> : null}
      </Section>
      <Section title="Authorization flow">
        <Switch
          label="Public Bot"
          checked={draft.botPublic}
          onChange={(v) => form.set({ botPublic: v })}
          description="Anyone can add your bot to their servers. Off: only you can."
        />
        <Switch
          label="Requires OAuth2 Code Grant"
          checked={draft.codeGrant}
          onChange={(v) => form.set({ codeGrant: v })}
          description="Adding the bot needs the full authorization code flow (a redirect and your server exchanging the code)."
        />
      </Section>
      <Section
        title="Privileged Gateway Intents"
        description="Some events carry more about people. Switch on only what your bot needs; a session identifying with an intent switched off here is closed with 4014."
      >
        {INTENTS.map((i) => (
          <Switch
            key={i.key}
            label={i.label}
            description={i.description}
            checked={draft[i.key]}
            onChange={(v) => form.set({ [i.key]: v } as Partial<BotSettings>)}
          />
        ))}
      </Section>
      {confirming ? (
        <ConfirmDialog
          title="Reset the bot's token?"
          confirm="Yes, do it!"
          danger
          busy={reset.busy}
          onConfirm={() => void reset.run()}
          onClose={() => setConfirming(false)}
        >
          Your bot stops working until you update its code with the new token.
        </ConfirmDialog>
      ) : null}
      <SaveBar form={form} />
    </>
  );
}
