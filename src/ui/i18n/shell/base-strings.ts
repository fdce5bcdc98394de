
/**
 * The shell's strings (everything but the question form). Accessible names that tests rely on are
 * fixed by the UI contract in English: change them only together with the e2e specs.
 */
const en = {
  'app.name': 'Parley',
  'title.pending': '({count}) Waiting for you · Parley',

  'nav.conversations': 'Conversations',
  'nav.settings': 'Settings',
  // Shown instead of the app when another page frames it (ui/shell/app-shell-script.ts): nothing in a frame can be clicked.
  'framed.openInOwnTab': 'Open Parley in its own tab',

  'conversations.new': 'New conversation',
  'conversations.empty': 'No conversations yet.',
  'conversations.pendingBadge': 'Question waiting',
  'conversation.untitled': 'New conversation',

  'empty.title': 'Welcome to Parley',
  'empty.what':
    'Parley is an AI agent that runs entirely in your browser and asks you short multiple-choice questions instead of guessing. Your conversations stay on this device.',
  'empty.demo':
    'The built-in scripted demo model works offline and needs no API key; connect a real model in Settings whenever you like.',
  'empty.try': 'Start a new conversation and try: “Plan my weekend”.',

  'chat.loading': 'Opening conversation…',
  'chat.rename': 'Rename conversation',
  'chat.renameShort': 'Rename',
  'chat.delete': 'Delete conversation',
  'chat.deleteShort': 'Delete',
  'chat.deleteTitle': 'Delete this conversation?',
  'chat.deleteBody': '“{title}” and all its messages will be removed from this device.',
  'chat.profile': 'Model profile',
  'chat.profileGone': 'Deleted profile: choose one…',

  'status.awaitingInput': 'Waiting for your answer',
  'status.running': 'Writing…',
  'status.interrupted': 'Interrupted',
  'status.waitingNetwork': 'Waiting for network',
  'status.serverUnreachable': 'Can’t reach the server — trying again by itself',
  'status.error': 'Something went wrong',

  'run.continue': 'Continue',
  'run.retry': 'Retry',
  'notice.retrying': 'Retrying in {seconds}s…',
  'notice.waitingNetwork': 'Offline: waiting for the network to come back…',
  'notice.serverUnreachable': 'The model server cannot be reached; Parley tries again by itself.',
  'notice.retryingSoon': 'Retrying soon…',
  'notice.waitingFile': 'Waiting for a file still syncing from another device…',

  'messages.label': 'Messages',
  'messages.empty': 'No messages yet. Say hello, or try “Plan my weekend”.',
  'messages.showEarlier': 'Show earlier messages ({count})',
  // virtual list
  'messages.jumpToLatest': 'Jump to latest',
  'message.user': 'You',
  'message.assistant': 'Parley',
  'message.interrupted': 'Interrupted',
  'message.notStarted': 'No reply yet.',
  'message.stopped': 'Stopped',
  'message.failed': 'Failed',
  'message.reasoning': 'Reasoning',
  'message.cut': 'Showing the first {shown} of {total} characters, to keep the page responsive.',
  'message.showAll': 'Show all',
  'message.clipped': 'The rest ({rest} characters) is too long to show here: Copy takes all of it, and so do the exports.',
  'message.plain': 'Shown as plain text: too deeply nested or too long to format.',
  'message.usageIn': '{count} tokens in',
  'message.usageInOne': '{count} token in',
  'message.usageOut': '{count} tokens out',
  'message.usageOutOne': '{count} token out',

  'tool.label': 'Tool: {name}',
  'tool.arguments': 'Arguments',

  'composer.label': 'Message',
  'composer.placeholder': 'Write a message…',
  'composer.questionHint': 'A question is waiting above. You can answer it there, or just type a reply here.',
  'composer.send': 'Send',
  'composer.stop': 'Stop',
  'composer.tooLong': 'This message is {count} characters long; a message holds at most {limit}. Shorten it, or attach the text as a file.',

  'dialog.cancel': 'Cancel',
  'dialog.delete': 'Delete',
  'banner.dismiss': 'Close',

  'settings.modelHeading': 'Model',
  'settings.demoInstructionsHint':
    'The demo follows its script, not instructions; a step\'s {{systemPrompt}} shows them as a real model would receive them. A conversation can have its own instead.',
  'profile.scriptedName': 'Built-in demo',

  'inbox.title': 'Waiting for you ({count})',
  'inbox.more': '+{count} more',
  'inbox.itemLabel': '{question} — {title}',
  'inbox.itemLabelMore': '{question} — {title} (and {count} more)',


  'update.ready': 'A new version is ready.',
  'update.reload': 'Reload to update',
  'update.later': 'Later',
  'update.offlineReady': 'Ready to work offline.',


  'outdated.text': 'Parley was updated in another tab. Reload this tab to go on; nothing you saved is lost.',
  'outdated.reload': 'Reload',
  'worker.restarted': "Parley's background worker stopped and was restarted. A reply it was writing was interrupted; you can continue it.",

  // phone layout
  'chat.actions': 'Conversation actions',
  'message.usageSpeed': '{rate} tokens/s',
  'message.notice.toolsLeftOut': "Tools were left out: this model's context ({tokens} tokens) cannot hold them.",
  'message.notice.filesNotHere': 'Made without a file that had not reached this device yet: it was still syncing from another device.',
};

/** Every other language must have exactly the English keys: a missing one fails the type check. */
export const baseStrings = { en };
