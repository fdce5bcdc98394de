import { lazy } from 'solid-js';

/**
 * ConfirmDialog for the conversation's own views (delete a conversation or a version, leave a branch): a dialog shown
 * only after a click, so its code loads then, not with the conversation. Settings, loaded on use itself, imports
 * ConfirmDialog.tsx directly.
 */
export const ConfirmDialog = lazy(() => import('./ConfirmDialog').then((module) => ({ default: module.ConfirmDialog })));
