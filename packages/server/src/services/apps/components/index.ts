/**
 * Components: pure validators (no storage) for message components (legacy and V2) and modals, and the builder of
 * modal submissions. Callers pass what the rules need (flags, attachments, SKU lookup).
 */
export { validateMessageComponents, type MessageComponentOpts, type AttachmentRef, type ComponentLeaf, type ValidatedComponents } from './message.js';
export { validateModal, modalSubmitShape, submittedValues, type Modal, type SubmittedValue, type SubmittedValues } from './modal.js';
export { C as ComponentType, IS_COMPONENTS_V2, SELECT_TYPES, ENTITY_SELECT_TYPES } from './types.js';
