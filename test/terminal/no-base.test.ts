// Issue 48, case 2 at a terminal: a draft kept while the service was down (piped, on a machine
// whose clock is 10 minutes ahead), then answers written on another device. `checkin today
// --resume` in a real terminal on that clock shows both and asks; "keep what is there" sends
// nothing and keeps the draft. (The piped resume refuses: test/cli/no-base.test.ts.)
import { describe, expect, it } from 'vitest';
import { whenLabel } from '../../src/domain/outbox.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { BINARY } from '../helpers/cli.js';
import { aheadBy, keptWhileDownAhead, NO_FAKETIME, writtenOnAnotherDevice } from '../helpers/clock-ahead.js';
import { outboxRows } from '../helpers/outbox.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { KEY, Screen } from '../helpers/terminal.js';

const SKEW_MS = 10 * 60_000;
const MINE = '- Wrote the export job';
const PHONE = '- Wrote the export job, then fixed its retry on the train';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));

describe.skipIf(NO_FAKETIME !== undefined)(NO_FAKETIME ? `skipped: ${NO_FAKETIME}` : 'a draft kept without a base, resumed at a terminal', () => {
  it('shows what is on the service and the draft, and asks; "keep what is there" sends nothing and keeps the draft', async () => {
    const { day, id } = await keptWhileDownAhead(SKEW_MS, sb, env, MINE);
    const savedAt = await writtenOnAnotherDevice(sb, day, PHONE);

    const at = aheadBy(SKEW_MS, env);
    const checkin = BINARY ? '"$bin"' : '"$node" "$bin"';
    const s = new Screen({ script: `${at.words.map((w) => `'${w}'`).join(' ')} ${checkin} today --resume` }, at.env, { cols: 200, rows: 40 });
    await s.waitFor('Which should the check-in hold?');
    const shown = s.text();
    expect(shown).toContain(
      `The draft ${id} was kept without seeing the check-in, so answers on the service (saved ${whenLabel(savedAt)}) may be newer than it.`,
    );
    expect(shown).toMatch(new RegExp(`On the service now:[\\s\\S]*${PHONE}[\\s\\S]*The draft:[\\s\\S]*${MINE}`));
    s.type(KEY.down + KEY.enter); // Keep what is there
    expect((await s.exit()).code).toBe(130);
    expect(s.text()).toContain(`Nothing was sent; the check-in keeps what is there, and the draft ${id} is still kept`);
    expect(sb.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/v2/check-ins/${day}`]);
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((row) => [row.id, row.state])).toEqual([[id, 'kept']]);
  });
});
