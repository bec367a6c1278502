/**
 * Who builds which missing operation (issue 4 and its neighbours), so the report can say where each unimplemented
 * route belongs. Operations not listed here are "unassigned". Update this when work moves.
 */
export const OWNERS: { area: string; operations: string[] }[] = [
  {
    area: 'issue 4, resources A: emojis, stickers, soundboard CRUD, scheduled events, stage instances, audit logs, AutoMod, integrations',
    operations: [
      'list_application_emojis', 'create_application_emoji', 'get_application_emoji', 'update_application_emoji', 'delete_application_emoji',
      'list_guild_emojis', 'create_guild_emoji', 'get_guild_emoji', 'update_guild_emoji', 'delete_guild_emoji',
      'list_sticker_packs', 'get_sticker_pack', 'get_sticker',
      'list_guild_stickers', 'create_guild_sticker', 'get_guild_sticker', 'update_guild_sticker', 'delete_guild_sticker',
      'get_soundboard_default_sounds', 'list_guild_soundboard_sounds', 'create_guild_soundboard_sound', 'get_guild_soundboard_sound',
      'update_guild_soundboard_sound', 'delete_guild_soundboard_sound',
      'list_guild_scheduled_events', 'create_guild_scheduled_event', 'get_guild_scheduled_event', 'update_guild_scheduled_event',
      'delete_guild_scheduled_event', 'list_guild_scheduled_event_users', 'count_guild_scheduled_event_users',
      'create_guild_scheduled_event_exception', 'update_guild_scheduled_event_exception', 'delete_guild_scheduled_event_exception',
      'list_guild_scheduled_event_exception_users',
      'create_stage_instance', 'get_stage_instance', 'update_stage_instance', 'delete_stage_instance',
      'list_guild_audit_log_entries',
      'list_auto_moderation_rules', 'create_auto_moderation_rule', 'get_auto_moderation_rule', 'update_auto_moderation_rule', 'delete_auto_moderation_rule',
      'list_guild_integrations', 'delete_guild_integration',
    ],
  },
  {
    area: 'issue 4, resources B: templates, welcome screen, onboarding, widget, vanity, prune, polls, forwarding/crossposting/followers, voice regions/states/status, connections, current member, invite target users, search',
    operations: [
      'get_guild_template', 'list_guild_templates', 'create_guild_template', 'sync_guild_template', 'update_guild_template', 'delete_guild_template',
      'get_guild_welcome_screen', 'update_guild_welcome_screen', 'get_guilds_onboarding', 'put_guilds_onboarding',
      'get_guild_widget_settings', 'update_guild_widget_settings', 'get_guild_widget', 'get_guild_widget_png', 'get_guild_vanity_url',
      'preview_prune_guild', 'prune_guild', 'get_answer_voters', 'poll_expire', 'crosspost_message', 'follow_channel',
      'list_voice_regions', 'list_guild_voice_regions', 'get_self_voice_state', 'update_self_voice_state', 'get_voice_state',
      'update_voice_state', 'update_voice_channel_status', 'list_my_connections', 'update_my_guild_member',
      'update_invite_target_users', 'get_invite_target_users', 'get_invite_target_users_job_status', 'add_invite_target_user',
      'remove_invite_target_user', 'bulk_add_invite_target_users', 'bulk_remove_invite_target_users', 'guild_search',
    ],
  },
  {
    area: 'issue 5, monetization: SKUs, entitlements, subscriptions',
    operations: [
      'get_entitlements', 'create_entitlement', 'get_entitlement', 'delete_entitlement', 'consume_entitlement',
      'get_current_user_application_entitlements', 'get_sku_subscriptions', 'get_sku_subscription',
    ],
  },
  { area: 'issue 6, voice: Send Soundboard Sound', operations: ['send_soundboard_sound'] },
];

export function ownerOf(operationId: string): string {
  return OWNERS.find((o) => o.operations.includes(operationId))?.area ?? 'unassigned';
}
