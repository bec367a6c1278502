import type { CommandOption, CommandRecord } from '../store/repos/commands.js';

export interface CommandView {
  /** Full `*_localizations` maps (single-command responses, and lists with `?with_localizations=true`). */
  localizations: boolean;
}

/** The application command object. Global commands carry dm_permission, contexts and integration_types. */
export function commandWire(r: CommandRecord, view: CommandView = { localizations: true }) {
  const out: Record<string, unknown> = {
    id: r.id,
    application_id: r.application_id,
    version: r.version,
    default_member_permissions: r.default_member_permissions,
    type: r.type,
    name: r.name,
  };
  if (view.localizations) out.name_localizations = r.name_localizations ?? null;
  out.description = r.description;
  if (view.localizations) out.description_localizations = r.description_localizations ?? null;
  if (r.guild_id) out.guild_id = r.guild_id;
  else {
    out.dm_permission = r.dm_permission ?? true;
    out.contexts = r.contexts ?? null;
    out.integration_types = r.integration_types ?? [0];
  }
  out.nsfw = r.nsfw;
  if (r.options.length) out.options = r.options.map((o) => optionWire(o, view));
  if (r.handler !== undefined) out.handler = r.handler;
  return out;
}

function optionWire(o: CommandOption, view: CommandView): Record<string, unknown> {
  const out: Record<string, unknown> = { type: o.type, name: o.name };
  if (view.localizations && o.name_localizations) out.name_localizations = o.name_localizations;
  out.description = o.description;
  if (view.localizations && o.description_localizations) out.description_localizations = o.description_localizations;
  if (o.required) out.required = true;
  if (o.choices) out.choices = o.choices.map((c) => (view.localizations || !c.name_localizations ? c : { name: c.name, value: c.value }));
  if (o.options) out.options = o.options.map((x) => optionWire(x, view));
  for (const k of ['channel_types', 'min_value', 'max_value', 'min_length', 'max_length', 'autocomplete', 'file_types'] as const) {
    if (o[k] !== undefined) out[k] = o[k];
  }
  return out;
}
