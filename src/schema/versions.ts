// Apart from records.ts, which needs zod: the page reads a message's versions and must not load zod to do it.

/** A fork as versionsOf reads it: the children of one parent, oldest first (records.ts's Fork satisfies it). */
interface ForkChildren {
  childIds: readonly string[];
}

/** The versions of a message (itself among them, oldest first), and which one it is; one version when it has no siblings. */
export function versionsOf(forks: readonly ForkChildren[] | undefined, messageId: string): { ids: string[]; index: number } {
  const fork = forks?.find((candidate) => candidate.childIds.includes(messageId));
  if (!fork) return { ids: [messageId], index: 0 };
  return { ids: [...fork.childIds], index: fork.childIds.indexOf(messageId) };
}
