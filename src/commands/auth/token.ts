// `checkin auth token`: the token, for scripts (`curl -H "Authorization: Bearer $(checkin auth token)"`).
// Printed to a pipe or a file; on a terminal, where others may see it, only with --show.
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { AuthError, UsageError } from '../../errors.js';
import type { Run } from '../flags.js';

export interface TokenOptions {
  show?: boolean;
}

export function tokenCommand(ctx: Context, run: Run<TokenOptions> = runToken) {
  return new Command('token')
    .description('Print the token, for scripts (to a pipe; on a terminal only with --show)')
    .option('--show', 'print it on a terminal too')
    .addHelpText(
      'after',
      '\nThe token is CHECKIN_TOKEN (or STEADY_TOKEN) when set, else the one `checkin login` stored.\n\nExamples:\n  curl -H "Authorization: Bearer $(checkin auth token)" "$CHECKIN_API_URL/me"\n  checkin auth token --show',
    )
    .action((opts) => run(ctx, opts));
}

export async function runToken(ctx: Context, opts: TokenOptions): Promise<void> {
  if (ctx.io.stdoutIsTTY && !opts.show) {
    throw new UsageError(
      'The token is not printed on a terminal unless you ask: add --show',
      'In a script it is printed as it is: TOKEN=$(checkin auth token)',
    );
  }
  const cfg = ctx.config();
  const token = cfg.token();
  if (!token) throw new AuthError('Not logged in: no token found', 'Run `checkin login`, or set CHECKIN_TOKEN (STEADY_TOKEN works too).');
  if (token.value === '') throw new AuthError(`The token in ${token.name ?? (token.where === 'keychain' ? 'the keychain' : cfg.file)} is empty`);
  ctx.io.out(`${token.value}\n`);
}
