export { Avatar, displayName } from './Avatar.js';
export { Button } from './Button.js';
export { Dialog } from './Dialog.js';
export { Field, TextField } from './Field.js';
export { Icon } from './Icon.js';
export { Menu, type MenuEntry } from './Menu.js';
export { Banner, Empty, ErrorState, Loading, Spinner } from './States.js';
export { toast, Toasts } from './Toasts.js';
