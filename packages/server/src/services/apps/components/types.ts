/** Component types (wire-values.md §5). */
export const C = {
  ACTION_ROW: 1,
  BUTTON: 2,
  STRING_SELECT: 3,
  TEXT_INPUT: 4,
  USER_SELECT: 5,
  ROLE_SELECT: 6,
  MENTIONABLE_SELECT: 7,
  CHANNEL_SELECT: 8,
  SECTION: 9,
  TEXT_DISPLAY: 10,
  THUMBNAIL: 11,
  MEDIA_GALLERY: 12,
  FILE: 13,
  SEPARATOR: 14,
  CONTAINER: 17,
  LABEL: 18,
  FILE_UPLOAD: 19,
  RADIO_GROUP: 21,
  CHECKBOX_GROUP: 22,
  CHECKBOX: 23,
} as const;

export const SELECT_TYPES: readonly number[] = [C.STRING_SELECT, C.USER_SELECT, C.ROLE_SELECT, C.MENTIONABLE_SELECT, C.CHANNEL_SELECT];
export const ENTITY_SELECT_TYPES: readonly number[] = [C.USER_SELECT, C.ROLE_SELECT, C.MENTIONABLE_SELECT, C.CHANNEL_SELECT];

export const ButtonStyle = { PRIMARY: 1, SECONDARY: 2, SUCCESS: 3, DANGER: 4, LINK: 5, PREMIUM: 6 } as const;

/** Message flag that switches a message to Components V2. */
export const IS_COMPONENTS_V2 = 1 << 15;

/** Channel types a Channel Select (or a CHANNEL command option) may filter on. */
export const CHANNEL_TYPES: readonly number[] = [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16];

export const LIMITS = {
  customId: 100,
  legacyRows: 5,
  rowButtons: 5,
  v2Total: 40,
  buttonLabel: 80,
  buttonUrl: 512,
  placeholder: 150,
  selectOptions: 25,
  optionText: 100,
  selectValues: 25,
  sectionTexts: 3,
  textDisplay: 4000,
  galleryItems: 10,
  mediaDescription: 1024,
  accentColor: 0xffffff,
  emojiName: 32,
  modalTitle: 45,
  modalComponents: 40,
  labelLabel: 45,
  labelDescription: 100,
  textInputLength: 4000,
  textInputPlaceholder: 100,
  fileUploadValues: 10,
  fileTypes: 10,
  radioOptions: [2, 10],
  checkboxOptions: [1, 10],
  int32: 2 ** 31 - 1,
  mediaUrl: 2048,
} as const;
