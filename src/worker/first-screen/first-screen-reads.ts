import type { CommandOf, CommandResult } from '../../schema/commands';
import type { Conversation, Profile } from '../../schema/records';
import { WireError } from '../../schema/wire-error';
import type { RecordDiff } from '../store/change-feed';
import type { ParleyDatabase } from '../store/database';
import { listMessagePage, listNewestMessages, OPEN_PAGE_SIZE } from '../store/message-pages';
import { discardUnused } from '../store/unused-conversations';
import type { SettingsStore } from '../settings/settings-store';

/**
 * What the first screen's reads work with. Both the first screen (before zod loads) and the full host's handlers (after
 * their repairs) call these reads, so a read has one answer (docs/architecture.md, "The first screen").
 */
export interface ReadDeps {
  database: ParleyDatabase;
  /** Loads, without waiting, what the conversation's next model request will need (its provider's code). */
  prepare(conversation: Conversation): void;
  /** The conversations some tab has on screen (their view locks): never discarded as unused. */
  viewed(): Promise<ReadonlySet<string>>;
  /** Announces a committed change (the change feed's diff). */
  committed(diff: RecordDiff): void;
  /** The clock records are stamped with. */
  now(): number;
}

/** Loads, without waiting, the provider code of the profile a conversation talks to (`profileId`, else the default). */
export function prepareProvider(settings: SettingsStore, prepareModel: ((profile: Profile) => void) | undefined, profileId: string | undefined): void {
  if (prepareModel) void settings.profileFor(profileId).then((profile) => profile && prepareModel(profile), () => undefined);
}

const conversationGone = () =>
  new WireError({ code: 'not_found', reason: 'conversation_gone', message: 'This conversation no longer exists. It may have been deleted in another tab.' });

/** `conversation.list`, newest first. A request waiting for the user is likely answered next: its provider's code loads meanwhile. */
export async function listConversations(deps: ReadDeps): Promise<Conversation[]> {
  const conversations = (await deps.database.getAllFromIndex('conversations', 'by-updated')).reverse();
  for (const conversation of conversations) if (conversation.runState === 'awaiting_input') deps.prepare(conversation);
  return conversations;
}

/**
 * `conversation.open`: only the newest page (a 10,000-message conversation opens as fast as a short one; the UI pages
 * back by seq). A message or an answer may follow, so the conversation's provider's code loads meanwhile.
 */
export async function openConversation(deps: ReadDeps, command: CommandOf<'conversation.open'>): Promise<CommandResult<'conversation.open'>> {
  const conversation = await deps.database.get('conversations', command.conversationId);
  if (!conversation) throw conversationGone();
  deps.prepare(conversation);
  const { messages, earlier } = await listNewestMessages(deps.database, command.conversationId, OPEN_PAGE_SIZE);
  return { conversation, messages, earlier };
}

/** `conversation.messages`. */
export async function messagePage(deps: ReadDeps, command: CommandOf<'conversation.messages'>): Promise<CommandResult<'conversation.messages'>> {
  if (!(await deps.database.get('conversations', command.conversationId))) throw conversationGone();
  return listMessagePage(deps.database, command.conversationId, command);
}

/**
 * `conversation.discardUnused`: keeps `keep`, whatever any tab has on screen, and `runElsewhere` (with sync, the
 * conversations another device runs: one arrives as its first record, untitled, before its messages).
 */
export async function discardUnusedConversations(deps: ReadDeps, command: CommandOf<'conversation.discardUnused'>, runElsewhere: Iterable<string> = []): Promise<CommandResult<'conversation.discardUnused'>> {
  // What is made from now on is not this clean-up's to take, though it may be in the store before the look is over.
  const askedAt = deps.now();
  const keep = new Set([...(await deps.viewed()), ...runElsewhere]);
  if (command.keep) keep.add(command.keep);
  const removed = await discardUnused(deps.database, keep, askedAt);
  if (removed.length > 0) deps.committed({ removed });
  return { removed };
}
