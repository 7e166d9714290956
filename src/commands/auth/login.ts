// `checkin login`: store a token, verified with GET /me (which is cached with it).
import { Command } from '@commander-js/extra-typings';
import { ApiClient, checkTransport } from '../../api/client.js';
import { getMe } from '../../api/endpoints.js';
import { DEFAULT_API_URL } from '../../api/types.js';
import { DEFAULT_PROFILE } from '../../config/profiles.js';
import { refuseFolderProfile } from './folder.js';
import { ApiError } from '../../api/errors.js';
import { privateFileWords } from '../../config/files.js';
import type { Context } from '../../context.js';
import { AuthError, UsageError } from '../../errors.js';
import { startAccountCache } from '../../domain/account.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import { USER_AGENT } from '../../version.js';
import type { Run } from '../flags.js';

export interface LoginOptions {
  withToken?: boolean;
  apiUrl?: string;
  insecureStorage?: boolean;
}

export function loginCommand(ctx: Context, run: Run<LoginOptions> = runLogin) {
  return new Command('login')
    .description('Store a token (verified with GET /me)')
    .option('--with-token', 'read the token from standard input')
    .option('--api-url <url>', 'the API base URL to store with it')
    .option('--insecure-storage', 'keep the token in the config file (mode 0600), not the keychain (for cron on a machine whose keychain is locked)')
    .addHelpText(
      'after',
      "\nThe token goes into the OS keychain where there is one, else into the config file (mode 0600).\nCHECKIN_TOKEN (or STEADY_TOKEN) in the environment always wins.\nWith --profile NAME they are that profile's: another account, kept beside this one (checkin help profiles).",
    )
    .action((opts) => run(ctx, opts));
}

export async function runLogin(ctx: Context, opts: LoginOptions): Promise<void> {
  const { io } = ctx;
  const cfg = ctx.config();
  // A login under a name config.json does not hold makes that profile.
  cfg.acceptUnknownProfile();
  const apiUrl = cfg.apiUrl(opts.apiUrl).value.replace(/\/+$/, '');
  checkTransport(apiUrl);
  refuseFolderProfile(cfg, 'login');
  let token: string;
  if (opts.withToken) {
    token = (await io.readStdin()).trim();
  } else if (io.canPrompt) {
    io.err(
      `Logging in to ${sanitizeLine(apiUrl)}${apiUrl === DEFAULT_API_URL ? ' (for a local sandbox, add --api-url with the URL `checkin sandbox` printed)' : ''}.\n`,
    );
    io.err(`Make a personal access token in the service's integrations settings (Read + write to fill in check-ins).\n`);
    token = (await ctx.prompter().password('Paste your token:')).trim();
  } else {
    throw new UsageError('No terminal to ask for the token', 'Pipe it in: `echo "$TOKEN" | checkin login --with-token`');
  }
  if (token === '') throw new UsageError('The token is empty; nothing was stored');
  if (/\s/.test(token)) throw new UsageError('The token contains spaces; paste just the token');

  const api = new ApiClient({ baseUrl: apiUrl, token, env: ctx.env, userAgent: USER_AGENT, sleep: ctx.sleep, ...(ctx.debug.api && { onTrace: ctx.onTrace }) });
  let me;
  try {
    me = await getMe(api);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401)
      throw new AuthError(`The service rejected this token (401): nothing was stored`, 'Check that you copied the whole token and that it has not expired.');
    throw err;
  } finally {
    await api.close();
  }
  const profile = cfg.profile.name;
  // The first profile a person makes is the one every run uses, whatever its name.
  const first = cfg.profileNames().filter((n) => n !== profile).length === 0;
  const stored = await cfg.storeToken(apiUrl, token, { file: Boolean(opts.insecureStorage) });
  await startAccountCache(cfg, apiUrl, token, me, ctx.now());
  const named = !(first && profile === DEFAULT_PROFILE);
  io.err(
    `Logged in as ${sanitizeLine(me.name)}${me.username ? ` (@${sanitizeLine(me.username)})` : ''} at ${apiUrl}${named ? `, as the profile ${profile}` : ''}\n`,
  );
  io.err(
    stored.where === 'keychain'
      ? `The token is in ${stored.name}.\n`
      : `The token is in ${cfg.file} (${privateFileWords()})${stored.why ? `: ${stored.why}` : ''}.\n`,
  );
  if (first && profile !== DEFAULT_PROFILE && cfg.readFile().profile === undefined) {
    await cfg.setDefaultProfile(profile);
    io.err(`It is your only profile, so it is now the default (\`checkin auth switch\` changes that).\n`);
  } else if (profile !== (cfg.readFile().profile ?? DEFAULT_PROFILE)) {
    io.err(`To use it: \`checkin auth switch ${profile}\` (from now on), or \`checkin --profile ${profile} …\` (one command).\n`);
  }
  if (ctx.env.CHECKIN_TOKEN || ctx.env.STEADY_TOKEN) {
    io.err(`Note: ${ctx.env.CHECKIN_TOKEN ? 'CHECKIN_TOKEN' : 'STEADY_TOKEN'} is set in your environment and takes precedence over the stored token.\n`);
  }
}
