// `checkin auth switch [NAME]`: which profile a run uses when nothing else names one (config.json's
// "profile"). Without a name: with two profiles the other one (as `gh auth switch` does), else a
// choice at a terminal.
import { Command } from '@commander-js/extra-typings';
import { DEFAULT_API_URL } from '../../api/types.js';
import { DEFAULT_PROFILE, validProfileName } from '../../config/profiles.js';
import type { Context } from '../../context.js';
import { defaultProfile, profileSummaries } from '../../domain/profiles.js';
import { UsageError } from '../../errors.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import type { Run } from '../flags.js';

export interface SwitchOptions {
  name?: string;
}

export function switchCommand(ctx: Context, run: Run<SwitchOptions> = runSwitch) {
  return new Command('switch')
    .description('Choose the default profile (with two, the other one; at a terminal, a choice)')
    .argument('[name]', 'the profile')
    .addHelpText(
      'after',
      "\n--profile NAME, CHECKIN_PROFILE and a folder's .checkin.json still win over the default (checkin help profiles).\n\nExamples:\n  checkin auth switch default   # the profile a run uses when none is named\n  checkin auth switch           # two profiles: the other one; more: a choice, on a terminal",
    )
    .action((name) => run(ctx, { ...(name !== undefined && { name }) }));
}

export async function runSwitch(ctx: Context, opts: SwitchOptions): Promise<void> {
  const { io } = ctx;
  const cfg = ctx.config();
  const names = cfg.profileNames();
  const current = defaultProfile(cfg);
  let name: string;
  if (opts.name !== undefined) {
    name = validProfileName(opts.name);
    // "default" is always there: the profile a run that names none uses (logged out until a login).
    if (!names.includes(name) && name !== DEFAULT_PROFILE)
      throw new UsageError(`There is no profile named ${name}`, `The profiles: ${names.join(', ')}. To make one: checkin login --profile ${name}`);
  } else if (names.length === 0) {
    throw new UsageError('There are no profiles yet', 'Make one: checkin login --profile <name>');
  } else if (names.length === 2 && names.includes(current)) {
    name = names.find((n) => n !== current)!;
  } else if (names.length === 1) {
    name = names[0]!;
  } else if (io.canPrompt) {
    const choices = profileSummaries(cfg)
      .filter((p) => names.includes(p.name))
      .map((p) => ({
        name: `${p.name}${p.name === current ? ' (the default now)' : ''}`,
        value: p.name,
        description: `${p.api_url}${p.person ? ` · ${p.person.name}` : ''}`,
      }));
    name = await ctx.prompter().select('Which profile should be the default?', choices, { default: current });
  } else {
    throw new UsageError(
      'Which profile? Name it (there is no terminal to ask)',
      `The profiles: ${names.join(', ')}. For example: checkin auth switch ${names[0]}`,
    );
  }
  if (name === current) io.err(`${name} is already the default profile.\n`);
  else {
    await cfg.setDefaultProfile(name);
    io.err(`The default profile is now ${name} (${sanitizeLine(cfg.read(name).api_url || DEFAULT_API_URL)}).\n`);
  }
  // What still names another profile where this was run.
  const env = ctx.env.CHECKIN_PROFILE;
  if (env && env !== name) io.err(`Note: CHECKIN_PROFILE=${sanitizeLine(env)} is set in your environment, and wins over the default.\n`);
  const dir = cfg.directory();
  if (dir?.profile && dir.profile !== name) io.err(`Note: ${sanitizeLine(dir.file)} names the profile ${dir.profile}, which wins in that folder and below.\n`);
}
