// Loaded by vite.config.ts alone (tsconfig.node.json), hence the `.ts` of its imports (a config loaded natively by Node
// needs them).

import { baseStrings } from './i18n/base-strings.ts';
import { baseStringsZhCN } from './i18n/base-strings.zh-CN.ts';
import { conversationSearchStrings } from './i18n/conversation-search-strings.ts';
import { conversationSearchStringsZhCN } from './i18n/conversation-search-strings.zh-CN.ts';
import { MENU_PATH, SETTINGS_CIRCLE, SETTINGS_PATH } from './icon-paths.ts';

/**
 * The app shell: the first screen's frame (the bar, "Conversations", "Settings", "New conversation", the search field),
 * written into index.html at build time (vite.config.ts) so the browser paints it with the page, before any of the app's
 * JavaScript has loaded. It has App.tsx's markup and classes, so the app replaces it without a shift (main.tsx).
 * app-shell-script.js, a few lines inlined after it that run as it is parsed, gives it the chosen theme, the route's
 * layout and the browser's language (the Chinese words are carried in `data-zh` attributes), and keeps a click made
 * before the app ran (`data-action` on the shell: the selector of the app's matching button), which the app then does.
 * The search field waits, disabled, for the app. Framed by another page, the script puts the `framed-refusal` template's
 * one line in the shell's place instead (clickjacking: no control of Parley's may sit under another page's).
 */
export function appShellHtml(): string {
  const en = { ...baseStrings.en, ...conversationSearchStrings.en };
  const zh = { ...baseStringsZhCN, ...conversationSearchStringsZhCN };
  const text = (key: keyof typeof en) => `data-zh="${escape(zh[key])}">${escape(en[key])}`;
  const label = (key: keyof typeof en) => `aria-label="${escape(en[key])}" data-zh-aria-label="${escape(zh[key])}"`;
  const icon = (body: string) =>
    `<svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;
  const { cx, cy, r } = SETTINGS_CIRCLE;
  return [
    '<div class="app app-shell" data-route="home" data-nav-open="false">',
    '<header class="app-bar">',
    `<button type="button" class="button nav-toggle" aria-controls="conversation-nav" aria-expanded="true" data-shell-action="button.nav-toggle">${icon(`<path d="${MENU_PATH}"></path>`)}<span class="label-text" ${text('nav.conversations')}</span></button>`,
    `<a class="brand" href="#/">${escape(en['app.name'])}</a>`,
    `<button type="button" class="button settings-button" data-shell-action="button.settings-button">${icon(`<circle cx="${cx}" cy="${cy}" r="${r}"></circle><path d="${SETTINGS_PATH}"></path>`)}<span class="label-text" ${text('nav.settings')}</span></button>`,
    '</header>',
    `<nav id="conversation-nav" class="conversation-nav" ${label('nav.conversations')}><div class="conversation-list">`,
    `<button type="button" class="button primary new-conversation" data-shell-action="button.new-conversation" ${text('conversations.new')}</button>`,
    `<div class="conversation-search"><input type="search" class="input" disabled ${label('conversationSearch.label')} placeholder="${escape(en['conversationSearch.label'])}" data-zh-placeholder="${escape(zh['conversationSearch.label'])}"></div>`,
    '</div></nav>',
    '<main class="main-area"></main>',
    '</div>',
    `<template class="framed-refusal-template"><p class="framed-refusal"><a href="/" target="_blank" rel="noopener" ${text('framed.openInOwnTab')}</a></p></template>`,
  ].join('');
}

function escape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
