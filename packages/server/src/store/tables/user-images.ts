/** Tables of migration 021_user_images: the bytes of people's avatars and banners. */
type Id = string;
type Ms = number;

export interface UserImagesTable {
  user_id: Id;
  /** 'avatar' or 'banner'. */
  kind: string;
  hash: string;
  content_type: string;
  data: Buffer;
  created_at: Ms;
}

declare module '../schema.js' {
  interface DB {
    user_images: UserImagesTable;
  }
}
