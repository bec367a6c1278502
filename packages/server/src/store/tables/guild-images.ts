/** Tables of migration 022_guild_images: the bytes of guilds' icons, splashes and banners. */
type Id = string;
type Ms = number;

export interface GuildImagesTable {
  guild_id: Id;
  /** 'icon', 'splash' or 'banner'. */
  kind: string;
  hash: string;
  content_type: string;
  data: Buffer;
  created_at: Ms;
}

declare module '../schema.js' {
  interface DB {
    guild_images: GuildImagesTable;
  }
}
