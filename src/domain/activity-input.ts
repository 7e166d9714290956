// An activity as the service takes it, for both faces: checked before it is kept or sent.
import type { ActivityInput } from '../api/types.js';
import { UsageError } from '../errors.js';

/** The most characters an activity's text may have (the service's limit). */
export const MAX_DESCRIPTION = 256;

/**
 * The text trimmed and at most MAX_DESCRIPTION characters, an https link, a label. `names` are the
 * asking face's words for the link and the label (`--url` at the terminal, `url` for an agent).
 */
export function activityInput(fields: { text: string; url?: string; group: string }, names: { url: string; group: string }): ActivityInput {
  const description = fields.text.trim();
  if (description === '') throw new UsageError('Nothing to record: the text is empty');
  const length = [...description].length;
  if (length > MAX_DESCRIPTION)
    throw new UsageError(
      `The text is ${length} characters; an activity takes at most ${MAX_DESCRIPTION}`,
      `Shorten it, or put the details behind ${names.url}.`,
    );
  if (fields.url !== undefined && !/^https:\/\/\S+$/.test(fields.url)) throw new UsageError(`${names.url} takes an https:// link, got "${fields.url}"`);
  if (fields.group.trim() === '') throw new UsageError(`${names.group} must not be empty`);
  return { group: fields.group, description, ...(fields.url !== undefined && { url: fields.url }) };
}
