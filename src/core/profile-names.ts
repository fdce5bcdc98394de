import { SCRIPTED_PROFILE_ID } from '../schema/limits';
import type { OfferedProfile } from '../schema/protocol';

/** How a user tells profile names apart: compatibility forms, case and surrounding spaces do not make two names. */
function profileNameKey(name: string): string {
  return name.normalize('NFKC').trim().toLocaleLowerCase('en');
}

/**
 * The names `incoming` profiles take beside the `taken` ones (and each other): a name already used gets the first
 * free " (n)" suffix, n from 2, the name shortened to keep within `maxLength`. A duplicate is renamed rather than
 * refused: a backup is restored whole, and two profiles with one name could not be told apart in any list.
 */
export function uniqueProfileNames(taken: Iterable<string>, incoming: readonly string[], maxLength = 80): string[] {
  const used = new Set([...taken].map(profileNameKey));
  return incoming.map((name) => {
    let candidate = name;
    for (let n = 2; used.has(profileNameKey(candidate)); n += 1) {
      const suffix = ` (${n})`;
      candidate = `${[...name].slice(0, maxLength - suffix.length).join('').trimEnd()}${suffix}`;
    }
    used.add(profileNameKey(candidate));
    return candidate;
  });
}

/**
 * Which of a backup's profiles would be added beside those `here`, and under which name: not the scripted one, not one
 * whose id is here (it is the same profile); a taken name gets a suffix. The offer and the write both use it.
 */
export function profilesToRestore<P extends { id: string; name: string; kind: string; baseUrl: string }>(here: ReadonlyArray<{ id: string; name: string }>, incoming: readonly P[]): Array<{ profile: P; offered: OfferedProfile }> {
  const ids = new Set(here.map((profile) => profile.id));
  const added = incoming.filter((profile, index) => profile.id !== SCRIPTED_PROFILE_ID && profile.kind !== 'scripted' && !ids.has(profile.id) && incoming.findIndex((other) => other.id === profile.id) === index);
  const names = uniqueProfileNames(here.map((profile) => profile.name), added.map((profile) => profile.name));
  return added.map((profile, index) => {
    const name = names[index]!;
    return { profile, offered: { name, baseUrl: profile.baseUrl, ...(name === profile.name ? {} : { nameInFile: profile.name }) } };
  });
}
