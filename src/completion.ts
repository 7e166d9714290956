// Shell completion (bash, zsh, fish, PowerShell) through @bomb.sh/tab's commander adapter:
// `checkin completion <shell>` prints the script; on Tab the shell runs `checkin complete -- …`,
// which answers from the command definitions and the local cache — never a network request.
// Loaded only for those two commands and --help: normal runs do not pay for it.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import tab from '@bomb.sh/tab/commander';
import type { Command as PlainCommand } from 'commander';
import { MOODS, MOOD_NAMES } from './api/types.js';
import { normalizeApiUrl, type CacheEntry } from './config/store.js';
import type { Context } from './context.js';

const DAY_WORDS: Array<[string, string]> = [
  ['today', 'today'],
  ['yesterday', 'yesterday'],
  ['tomorrow', 'tomorrow'],
  ['workday', 'the last Monday–Friday before today'],
  ...['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d): [string, string] => [d, `the most recent ${d}`]),
];

/**
 * What the cache holds for this service (no request is ever made here, and the keychain is not
 * touched: the cache is found by the API URL its keys start with).
 */
function cached(ctx: Context): CacheEntry {
  try {
    const cfg = ctx.config();
    const prefix = `${normalizeApiUrl(cfg.apiUrl().value)} `;
    const entries = Object.entries(cfg.read().cache ?? {}).filter(([key]) => key.startsWith(prefix));
    return Object.assign({}, ...entries.map(([, entry]) => entry)) as CacheEntry;
  } catch {
    return {};
  }
}

/** bash without the bash-completion package lacks the helper the script calls: a small one stands in. */
const BASH_PRELUDE = `# checkin completion for bash. Put this in ~/.bashrc:  source <(checkin completion bash)
if ! declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
  _get_comp_words_by_ref() {
    # Without the bash-completion package: the words as bash split them.
    cur="\${COMP_WORDS[COMP_CWORD]}"; prev="\${COMP_WORDS[COMP_CWORD-1]}"; words=("\${COMP_WORDS[@]}"); cword=$COMP_CWORD
  }
fi
`;

const INSTALL = `
Install the completion in your shell:
  bash        echo 'source <(checkin completion bash)' >> ~/.bashrc
  zsh         echo 'source <(checkin completion zsh)' >> ~/.zshrc
  fish        checkin completion fish > ~/.config/fish/completions/checkin.fish
  PowerShell  checkin completion powershell >> $PROFILE

Tab completes commands, subcommands and flags, moods, day words, and --person/--team names and
goal ids from what checkin has cached (run \`checkin list --person …\` or \`checkin goals\` once):
a Tab never sends a request.`;


export function addCompletion(ctx: Context, program: CommandUnknownOpts): void {
  const completion = tab(program as unknown as PlainCommand, { completionCommandName: 'completion' });
  const command = program.commands.find((c) => c.name() === 'completion');
  command?.addHelpText('after', INSTALL).hook('preAction', (_cmd, action) => {
    if (action.args[0] === 'bash') ctx.io.out(BASH_PRELUDE);
  });
  type Complete = (value: string, description: string) => void;
  const days = (complete: Complete) => DAY_WORDS.forEach(([w, d]) => complete(w, d));
  const moods = (complete: Complete) => {
    complete('none', 'no mood');
    for (const m of MOOD_NAMES) complete(m, MOODS[m]);
  };
  const people = (complete: Complete) => {
    complete('me', 'you');
    for (const p of cached(ctx).directory?.people ?? []) if (p.username) complete(`@${p.username}`, p.name);
  };
  const teams = (complete: Complete) => {
    const c = cached(ctx);
    const names = new Map<string, string>();
    for (const t of [...(c.me?.teams ?? []), ...(c.directory?.teams ?? [])]) names.set(t.name, t.id);
    for (const name of names.keys()) complete(name, 'team');
  };
  const goals = (complete: Complete) => {
    for (const g of cached(ctx).goals ?? []) complete(g.id, g.title);
  };

  const on = (path: string, option: string, handler: (complete: Complete) => void) => {
    const o = completion.commands.get(path)?.options.get(option);
    if (o) o.handler = handler;
  };
  const arg = (path: string, name: string, handler: (complete: Complete) => void) => {
    const a = completion.commands.get(path)?.arguments.get(name);
    if (a) a.handler = handler;
  };
  for (const path of ['today', 'checkin']) {
    on(path, 'mood', moods);
    on(path, 'team', teams);
  }
  arg('checkin', 'key', (complete) => {
    days(complete);
    complete('last', 'my most recent check-in before today');
  });
  for (const path of ['comments', 'reactions']) arg(path, 'key', days);
  for (const path of ['list', 'goals', 'activity']) {
    on(path, 'person', people);
    on(path, 'team', teams);
  }
  on('team', 'team', teams);
  for (const path of ['list', 'activity']) {
    on(path, 'since', days);
    on(path, 'until', days);
  }
  on('team', 'date', days);
  for (const path of ['goal update', 'goal update create', 'goal update list', 'goal updates']) arg(path, 'goal-id', goals);
}
