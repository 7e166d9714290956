// The outbox as the tests read it: the files in <config>/drafts (the state folder is the config
// folder in tests: CHECKIN_CONFIG_DIR). Read straight from the disk, as a person would look.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const draftsDir = (configDir: string): string => join(configDir, 'drafts');

/** Every file in the drafts folder (entries, claims, marks), sorted; none when there is no folder. */
export function draftFolder(configDir: string): string[] {
  try {
    return readdirSync(draftsDir(configDir)).sort();
  } catch {
    return [];
  }
}

/** The entries (the `.json` files), each as it says. */
export function draftEntries<T = any>(configDir: string): T[] {
  return draftFolder(configDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(draftsDir(configDir), f), 'utf8')) as T);
}
