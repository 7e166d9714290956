// `checkin goal …`: create and change goals; post a goal update, and list, view, edit and delete updates.
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { goalCreateCommand } from './create.js';
import { goalEditCommand } from './edit.js';
import { goalUpdateCreateCommand } from './update/create.js';
import { goalUpdateDeleteCommand } from './update/delete.js';
import { goalUpdateEditCommand } from './update/edit.js';
import { goalUpdateListCommand } from './update/list.js';
import { goalUpdateViewCommand } from './update/view.js';

/** `goal update …`: create is the default (`goal update <goal-id>`); list, view, edit, delete one update. */
function goalUpdateGroup(ctx: Context): CommandUnknownOpts {
  return new Command('update')
    .description('Post a goal update (goal update <goal-id>), or list, view, edit and delete updates')
    .addCommand(goalUpdateCreateCommand(ctx), { isDefault: true })
    .addCommand(goalUpdateListCommand(ctx))
    .addCommand(goalUpdateViewCommand(ctx))
    .addCommand(goalUpdateEditCommand(ctx))
    .addCommand(goalUpdateDeleteCommand(ctx))
    .addHelpText(
      'after',
      '\nExamples:\n  checkin goal update <goal-id> --title "Invoices shipped" --body - --progress 60 < notes.md\n  checkin goal update list <goal-id>\n  checkin goal update view <update-id>\n  checkin goal update edit <update-id> --progress 70\n  checkin goal update delete <update-id> --yes',
    );
}

/** The older spellings, kept working: `goal updates <goal-id>` and `goal updates show|edit|delete <update-id>`. */
function goalUpdatesGroup(ctx: Context): CommandUnknownOpts {
  return new Command('updates')
    .description("List a goal's updates (same as goal update list); show, edit or delete one")
    .addCommand(goalUpdateListCommand(ctx), { isDefault: true, hidden: true })
    .addCommand(goalUpdateViewCommand(ctx).name('show'))
    .addCommand(goalUpdateEditCommand(ctx))
    .addCommand(goalUpdateDeleteCommand(ctx));
}

export function goalCommand(ctx: Context): CommandUnknownOpts {
  return new Command('goal')
    .description('Create and change goals; post and manage goal updates')
    .addCommand(goalCreateCommand(ctx))
    .addCommand(goalEditCommand(ctx))
    .addCommand(goalUpdateGroup(ctx))
    .addCommand(goalUpdatesGroup(ctx));
}
