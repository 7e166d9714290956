// Flag value parsers and flags shared by the command definitions.
import { InvalidArgumentError, Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import type { AdviceWords, Context, DraftTarget } from '../context.js';
import { terminal, UsageError } from '../errors.js';

/** A whole number from `min` to `max`, or commander's one-line "argument is invalid" error. */
export function parseIntIn(min: number, max: number, what: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${what} must be a whole number from ${min} to ${max}.`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${what} must be from ${min} to ${max}.`);
    return n;
  };
}

/** `--name <n>` taking a whole number from `min` to `max`; its errors name the flag. */
export function intOption<F extends string>(flags: F, description: string, min: number, max: number) {
  // Given twice, it is refused (never the last one silently taken).
  return new Option(flags, description).argParser(once(flags.split(' ')[0]!, parseIntIn(min, max, flags.split(' ')[0]!)));
}

/** A repeatable option: --team a --team b → ['a', 'b']. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--env NAME=VALUE` (repeatable): what a Task Scheduler task, which has no environment of its own, hands the run it starts. */
export const runEnvOption = () =>
  new Option('--env <NAME=VALUE>', 'set a variable the run needs (a scheduled task has no environment of its own)').argParser(collect);

/** What a command's action calls: its run function, or a stand-in that records the options (tests). */
export type Run<O> = (ctx: import('../context.js').Context, opts: O) => Promise<void>;

/** --person and --team, as the list commands take them. */
export interface WhoOptions {
  person?: string[];
  team?: string[];
}

export function whoOptions<A extends unknown[], O extends OptionValues>(cmd: Command<A, O>) {
  return cmd
    .option('--person <who>', 'UUID, me, a name or @username (repeatable, or a,b)', collect)
    .option('--team <team>', 'UUID or name (repeatable, or a,b)', collect);
}

/** What a long walk says when it waits for the rate limit (list --all, inbox, report). */
export function pauseNotice(ctx: import('../context.js').Context): (ms: number) => void {
  return (ms) => ctx.io.err(`Pausing ${(ms / 1000).toFixed(1).replace(/\.0$/, '')} s to stay under the rate limit…\n`);
}

// --resume in the CLI's words: what to run to send what was kept. The domain says which target and
// that something was kept (context.ts `AdviceWords`); main.ts `run` gives it these words.

/** The command that sends what waits for a target. */
export function resumeCommand(target: DraftTarget): string {
  switch (target.kind) {
    case 'check-in':
      return `checkin checkin ${target.key} --resume`;
    case 'comment':
      return `checkin comments ${target.on === 'check-in' ? target.id : `--goal-update ${target.id}`} --resume`;
    case 'goal-update':
      return `checkin goal update ${target.goalId} --resume`;
    case 'goal-update-edit':
      return `checkin goal update edit ${target.id} --resume`;
    case 'activity':
      return 'checkin log --resume';
    case 'goal':
      return 'checkin goal create --resume';
    case 'goal-edit':
      return `checkin goal edit ${target.id} --resume`;
    case 'echo-question':
      return 'checkin echo ask --resume';
    case 'webhook-post':
      return `checkin report --post${target.given ? ` ${GIVEN_URL}` : ''} --resume`;
  }
}

/** Where a command must name the webhook a post was given for (its URL is kept nowhere: it is a secret): what to type in its place. */
const GIVEN_URL = '<the URL you gave>';

/** What `checkin drafts send` needs in front of it for an entry: a post to a webhook given for its run alone is sent there with that URL given again (CHECKIN_WEBHOOK). */
const sendPrefix = (target?: DraftTarget): string => (target?.kind === 'webhook-post' && target.given ? `CHECKIN_WEBHOOK=${GIVEN_URL} ` : '');

/** The one phrase for what was kept and how to send it: `resume` sends it, `list` lists everything waiting. */
function keptWords(resume: string, list: string): string {
  return `What you wrote is kept as a draft: \`${resume}\` sends it (\`${list}\` lists everything waiting).`;
}

/** The one phrase for what was kept, in this run's words (carrying the profile --profile chose): `resume` sends it. */
export function keptLine(ctx: Pick<Context, 'advice'>, resume: string): string {
  return (ctx.advice ?? CLI_ADVICE).kept(resume);
}

/** `command` run under `profile`: `--profile NAME` right after `checkin` (one it carried already is replaced). */
function asProfile(command: string, profile: string): string {
  return command.replace(/^checkin(?: --profile \S+)?(?= |$)/, `checkin --profile ${profile}`);
}

/**
 * The CLI's words for what to run. `flag`: the profile --profile chose for this run, read when words are made; a
 * profile the person chose by flag is carried by every command they are told to run (one that names
 * its own profile already keeps it), so the command sends, lists or logs in under the same account.
 * (CHECKIN_PROFILE and a folder's .checkin.json choose it again in the same shell or folder.)
 */
export function cliAdvice(flag: () => string | undefined = () => undefined): AdviceWords {
  const here = (command: string): string => {
    const profile = flag();
    return profile === undefined || /^checkin --profile /.test(command) ? command : asProfile(command, profile);
  };
  return {
    here,
    resume: (target) => here(resumeCommand(target)),
    kept: (resume) => keptWords(here(resume), here('checkin drafts')),
    send: (id, target) => `${sendPrefix(target)}${here(`checkin drafts send ${id}`)}`,
    drop: (id) => here(`checkin drafts drop ${id}`),
    show: (id) => here(`checkin drafts show ${id}`),
    list: () => here('checkin drafts'),
    edit: (target) => here(`${resumeCommand(target)} -e`),
    listIds: (kind) => here({ 'check-in': 'checkin list', goal: 'checkin goals', 'goal update': 'checkin goal update list <goal-id>' }[kind]),
    login: (how) => here(how ? `checkin login --${how}` : 'checkin login'),
    doctor: () => here('checkin doctor'),
    traced: () => here('checkin --debug me'),
    remind: (step) => here(`checkin remind ${step}`),
    notifySchedule: (step) => here(step === 'run' ? 'checkin notify --once' : `checkin notify ${step}`),
    mcpConfig: (agent) => here(`checkin mcp --print-config ${agent}`),
    skillInstall: (place) =>
      here(
        `checkin skill install${place ? ` --agent ${place.agent} --scope ${place.scope}${place.force ? ' --force' : ''}${place.hooks ? ' --hooks' : ''}` : ''}`,
      ),
    skillUninstall: (place) => here(`checkin skill uninstall --agent ${place.agent} --scope ${place.scope}`),
    asProfile,
    setSetting: (key, value) => here(`checkin config set ${key} ${value}`),
    unsetSetting: (key) => here(`checkin config unset ${key}`),
  };
}

/** `command` as this run would be run again: carrying the profile --profile chose (AdviceWords `here`). */
export function hereCommand(ctx: Pick<Context, 'advice'>, command: string): string {
  return (ctx.advice ?? CLI_ADVICE).here(command);
}

/** The CLI's words with no profile carried (a run's own are main.ts's: cliAdvice with its --profile). */
export const CLI_ADVICE: AdviceWords = cliAdvice();

/** --resume sends what was kept; text piped now would have no draft of its own: refused before standard input is read. */
export function noPipeWithResume(resume: string, piped: boolean): void {
  if (piped)
    throw new UsageError(
      '--resume sends what was kept; standard input ("-") cannot be added to it, nothing was read or sent',
      terminal(`Send what was kept with \`${resume}\`, then pipe the new text without --resume.`),
    );
}

/**
 * An answer given more than once: each value is a line, in the order given (`-i a -i b` → "a\nb"),
 * so no value on the command line is dropped. `-` (standard input) stands alone.
 */
export function joinLines(flag: string) {
  return (value: string, previous: string | undefined): string => {
    if (previous === undefined) return value;
    if (value === '-' || previous === '-')
      throw new InvalidArgumentError(`${flag} - reads standard input, and cannot be joined with another ${flag}; give the lines in one of the two.`);
    return `${previous}\n${value}`;
  };
}

/**
 * A value that can be given once: a second one is refused, not silently taken over the first.
 * `secret` (a webhook URL): the refusal says neither value — and is not commander's, whose words
 * for a refused value repeat it.
 */
export function once<T = string>(flag: string, parse: (value: string) => T = (v) => v as T, { secret = false }: { secret?: boolean } = {}) {
  return (value: string, previous: T | undefined): T => {
    if (previous !== undefined && secret) throw new UsageError(`${flag} was given more than once; give it once.`);
    if (previous !== undefined)
      throw new InvalidArgumentError(`${flag} was given more than once (${JSON.stringify(String(previous))}, then ${JSON.stringify(value)}); give it once.`);
    return parse(value);
  };
}

/** Options already made to refuse a repeat (refuseRepeats runs again over the completion's commands). */
const guarded = new WeakSet<Option>();

/**
 * Every option of `cmd` that takes one value and has no parser of its own (commander would keep
 * the last of several and drop the others without a word) is made to refuse a second one. Options
 * that collect (--team, -p…) or parse (whole numbers) have their own rule. One with a default
 * (log --group, remind --at) or a list of choices (report --format, skill --agent) is refused the
 * same way: its value source says whether a value came from the command line already (a default
 * alone is not a first value), and the choices are still checked.
 */
export function refuseRepeats(cmd: { options: readonly Option[]; getOptionValueSource(key: string): string | undefined }): void {
  for (const o of cmd.options) {
    if (!(o.required || o.optional) || o.variadic || guarded.has(o)) continue;
    if (o.parseArg !== undefined && o.argChoices === undefined) continue;
    const flag = o.long ?? o.short ?? o.flags;
    guarded.add(o);
    if (o.defaultValue === undefined && o.parseArg === undefined) {
      o.argParser(once(flag));
      continue;
    }
    const given = once(flag);
    const choices = o.parseArg as ((value: string, previous: unknown) => unknown) | undefined;
    o.argParser((value: string, previous: unknown) => {
      given(value, cmd.getOptionValueSource(o.attributeName()) === 'cli' ? String(previous) : undefined);
      return choices ? choices(value, previous) : value;
    });
  }
}

/**
 * The words around a scheduled job's install or removal (remind's and notify's): --dry-run shows the
 * steps and changes nothing, else they are taken; where the token is (`warning`) is said either way.
 * True when they were taken (the caller then says what was installed or removed).
 */
export async function takeSteps(
  ctx: Pick<Context, 'io'>,
  verb: 'install' | 'remove',
  steps: ReadonlyArray<{ show: string; act: () => Promise<void> | void }>,
  what: string,
  warning: string | undefined,
  dryRun: boolean | undefined,
): Promise<boolean> {
  if (dryRun) {
    ctx.io.err(`# --dry-run: would ${verb} ${what}. Nothing was changed.\n`);
    if (warning) ctx.io.err(warning);
    ctx.io.out(steps.map((s) => `${s.show.replace(/\n$/, '')}\n`).join(''));
    return false;
  }
  for (const step of steps) await step.act();
  if (warning) ctx.io.err(warning);
  return true;
}

/** A scheduled job's `status --dry-run`: what would be read or run to find it (`find` pushes each onto its list), one line each; nothing is. */
export async function showLookups(ctx: Pick<Context, 'io'>, find: (dry: string[]) => Promise<unknown>): Promise<void> {
  const dry: string[] = [];
  await find(dry);
  ctx.io.out(dry.map((l) => `${l}\n`).join(''));
}
