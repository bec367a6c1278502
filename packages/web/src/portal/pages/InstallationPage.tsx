import { PermissionList } from '../../lib/oauth/PermissionList.js';
import { parsePermissions } from '../../lib/oauth/permissions.js';
import { Banner, TextField } from '../../lib/ui/index.js';
import { useAppForm, useOpenApp } from '../context.js';
import type { Application, IntegrationTypesConfig } from '../types.js';
import { CopyField } from '../ui/CopyField.js';
import { SaveBar } from '../ui/SaveBar.js';
import { PageHead, Section } from '../ui/Section.js';
import { Checkbox } from '../ui/Checkbox.js';

interface Context {
  enabled: boolean;
  scopes: string[];
  permissions: string;
}
interface Install {
  guild: Context;
  user: Context;
  customUrl: string;
}

const contextOf = (a: Application, key: '0' | '1'): Context => {
  const cfg = a.integration_types_config;
  const params = cfg[key]?.oauth2_install_params;
  return { enabled: key in cfg, scopes: params?.scopes ?? [], permissions: params?.permissions ?? '0' };
};

function configOf(d: Install): IntegrationTypesConfig {
  const out: IntegrationTypesConfig = {};
  const params = (c: Context, bot: boolean) =>
    c.scopes.length ? { oauth2_install_params: { scopes: c.scopes, permissions: bot && c.scopes.includes('bot') ? c.permissions : '0' } } : {};
  if (d.guild.enabled) out['0'] = params(d.guild, true);
  if (d.user.enabled) out['1'] = params(d.user, false);
  return out;
}

/** Where the app can be installed (servers, people), its install link, and what that link asks for by default. */
export function InstallationPage() {
  const { app } = useOpenApp();
  const form = useAppForm<Install>(
    (a) => ({ guild: contextOf(a, '0'), user: contextOf(a, '1'), customUrl: a.custom_install_url ?? '' }),
    (d) => ({ integration_types_config: configOf(d), custom_install_url: d.customUrl.trim() || null }),
  );
  const { draft } = form;
  const link = `${window.location.origin}/oauth2/authorize?client_id=${app.id}`;
  const setGuild = (p: Partial<Context>) => form.set({ guild: { ...draft.guild, ...p } });
  const setUser = (p: Partial<Context>) => form.set({ user: { ...draft.user, ...p } });
  const toggleScope = (c: Context, scope: string, on: boolean) => (on ? [...c.scopes, scope] : c.scopes.filter((s) => s !== scope));
  const onlyOne = Number(draft.guild.enabled) + Number(draft.user.enabled) === 1;

  return (
    <>
      <PageHead title="Installation">Choose where people can install your app, and what its install link asks for.</PageHead>
      <Section
        title="Installation contexts"
        description="An app installed to a server is there for every member; an app installed by a person follows them everywhere."
      >
        <div className="p-stack">
          <Checkbox
            label="User Install"
            description="People install your app to their account and use its commands in any server and in DMs."
            checked={draft.user.enabled}
            disabled={draft.user.enabled && onlyOne}
            onChange={(v) => setUser({ enabled: v })}
          />
          <Checkbox
            label="Guild Install"
            description="Server managers add your app to a server, with its bot and commands."
            checked={draft.guild.enabled}
            disabled={draft.guild.enabled && onlyOne}
            onChange={(v) => setGuild({ enabled: v })}
          />
        </div>
      </Section>
      <Section title="Install link" description="Share it anywhere: it opens the consent screen with your default install settings.">
        <CopyField label="Accord provided link" value={link} />
        {!draft.guild.scopes.length && !draft.user.scopes.length ? (
          <Banner kind="warn">The link asks for nothing yet: pick the default scopes below, or people opening it see an error.</Banner>
        ) : null}
        <TextField
          label="Custom install URL (optional)"
          placeholder="https://example.com/install"
          value={draft.customUrl}
          onChange={(e) => form.set({ customUrl: e.target.value })}
          error={form.save.fieldError('custom_install_url')}
        />
      </Section>
      <Section title="Default install settings" description="The scopes and bot permissions the install link asks for in each context.">
        {draft.user.enabled ? (
          <div className="install-ctx">
            <h3 className="install-ctx__title">User Install</h3>
            <Checkbox
              label="applications.commands"
              checked={draft.user.scopes.includes('applications.commands')}
              onChange={(v) => setUser({ scopes: toggleScope(draft.user, 'applications.commands', v) })}
            />
          </div>
        ) : null}
        {draft.guild.enabled ? (
          <div className="install-ctx">
            <h3 className="install-ctx__title">Guild Install</h3>
            <div className="p-row">
              <Checkbox
                label="applications.commands"
                checked={draft.guild.scopes.includes('applications.commands')}
                onChange={(v) => setGuild({ scopes: toggleScope(draft.guild, 'applications.commands', v) })}
              />
              <Checkbox label="bot" checked={draft.guild.scopes.includes('bot')} onChange={(v) => setGuild({ scopes: toggleScope(draft.guild, 'bot', v) })} />
            </div>
            {draft.guild.scopes.includes('bot') ? (
              <div className="install-ctx__perms">
                <div className="field__label">
                  Bot permissions <span className="muted">({draft.guild.permissions})</span>
                </div>
                <PermissionList
                  label="Default bot permissions"
                  value={parsePermissions(draft.guild.permissions)}
                  onChange={(v) => setGuild({ permissions: v.toString() })}
                />
              </div>
            ) : null}
          </div>
        ) : null}
      </Section>
      <SaveBar form={form} />
    </>
  );
}
