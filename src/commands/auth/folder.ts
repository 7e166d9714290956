// `login` and `logout` change a profile only when the person named it: never one a folder's
// .checkin.json chose (domain/profiles.ts chosenByFolder), which may have come with a cloned repository.
import type { ConfigStore } from '../../config/store.js';
import { chosenByFolder } from '../../domain/profiles.js';
import { UsageError } from '../../errors.js';
import { sanitizeLine } from '../../ui/sanitize.js';

export function refuseFolderProfile(cfg: ConfigStore, command: 'login' | 'logout'): void {
  const folder = chosenByFolder(cfg);
  if (folder)
    throw new UsageError(
      `${sanitizeLine(folder.file)} names the profile ${folder.name}; \`checkin ${command}\` changes a profile only when you name it`,
      `checkin ${command} --profile ${folder.name}`,
    );
}
