// `checkin auth status`: who, at which URL, where the token is kept, and whether it works —
// never the token itself; then every profile, from config.json and the cache (no request, no
// keychain read for a profile not in use).
import { Command } from '@commander-js/extra-typings';
import { ApiError } from '../../api/errors.js';
import { privateFileWords } from '../../config/files.js';
import type { Context } from '../../context.js';
import { AuthError } from '../../errors.js';
import { me } from '../../domain/account.js';
import { JSON_FIELDS, jsonOption, printOne, type JsonFlag } from '../../ui/output.js';
import { AUTH_STATUS } from '../../core/shapes.js';
import { project } from '../../api/validate.js';
import { authStatusView } from '../../ui/views.js';
import { profileSummaries, profilesMatter } from '../../domain/profiles.js';
import { profileOrigin } from '../../config/profiles.js';
import type { Run } from '../flags.js';

export interface StatusOptions {
  json?: JsonFlag;
}

export function statusCommand(ctx: Context, run: Run<StatusOptions> = runStatus) {
  return new Command('status')
    .description('Who the token belongs to, where it is kept, whether it works (never the token); every profile')
    .addOption(jsonOption(JSON_FIELDS.authStatus, `print {${JSON_FIELDS.authStatus.join(', ')}} as JSON`))
    .action((opts) => run(ctx, opts));
}

export async function runStatus(ctx: Context, opts: StatusOptions): Promise<void> {
  const cfg = ctx.config();
  const url = cfg.apiUrl().value;
  const token = cfg.token();
  const profile = cfg.profile;
  if (!token) {
    if (!profilesMatter(cfg))
      throw new AuthError(`Not logged in to ${url}: no token found`, 'Run `checkin login`, or set CHECKIN_TOKEN (STEADY_TOKEN works too).');
    const others = cfg.profileNames().filter((n) => n !== profile.name);
    throw new AuthError(
      `Not logged in under the profile ${profile.name} (${profileOrigin(profile)}): no token found`,
      `Run \`checkin login --profile ${profile.name}\`${others.length > 0 ? `, or use another profile: ${others.join(', ')} (\`checkin auth switch\`)` : ''}.`,
    );
  }
  const secrets = token.where === 'keychain' ? cfg.secrets() : undefined;
  const source =
    token.where === 'env'
      ? `the environment (${token.name})`
      : token.where === 'keychain'
        ? typeof secrets === 'object' && secrets
          ? secrets.name
          : 'the keychain'
        : `${cfg.file} (${privateFileWords()})`;
  let person;
  let works = true;
  let why = '';
  try {
    person = await me(ctx, { refresh: true });
  } catch (err) {
    if (!(err instanceof ApiError) || (err.status !== 401 && err.status !== 403)) throw err;
    works = false;
    why = `${err.status}${err.serviceMessage ? `: ${err.serviceMessage}` : ''}`;
  }
  const report = project(AUTH_STATUS, {
    api_url: url,
    token_source: token.where ?? 'file',
    source,
    person: person ? { id: person.id, name: person.name, username: person.username } : null,
    works,
    why,
    profile: profile.name,
    profile_from: profile.origin,
    profiles: profileSummaries(cfg),
  });
  await printOne(ctx.io, ctx.now(), report, opts.json, authStatusView);
  if (!works) throw new AuthError('The token does not work', 'Run `checkin login` with a valid token.');
}
