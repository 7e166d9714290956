// Demo data for the sandbox: five people in two teams, two weeks of history ending today.

import type { Mood } from '../api/types.js';
import { addDays, localDateKey } from '../core/datekey.js';
import { instantInZone } from '../core/zone.js';
import { noAnswers, type CheckInRecord, type DayName, type PersonRecord, type SandboxData, type TeamRecord } from './data.js';
import { addHistory } from './history.js';
import { checkInId, isoSeconds, stableUuid } from './ids.js';
import { SandboxService } from './service.js';

export const DEMO_TOKEN = 'sandbox_pat_demo';
export const DEMO_READ_TOKEN = 'sandbox_pat_read_only';

/** Zones come in both forms the docs show: Rails names ("Eastern Time (US & Canada)") and IANA names. */
const person = (username: string, name: string, title: string, location: string, time_zone: string, bio: string | null): PersonRecord => ({
  id: stableUuid(`person:${username}`),
  name,
  username,
  email: `${username}@example.com`,
  time_zone,
  title,
  location,
  bio,
  administrator: username === 'ada',
  kind: 'human',
});

const EVERY_DAY: DayName[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const WEEKDAYS: DayName[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

const WORK = [
  "Review @grace's PR on the **billing webhooks**",
  'Pair with @linus on the flaky `checkout` test',
  'Write the migration for `invoices.currency`',
  'Finish the *rate limiter* design doc',
  'Triage the mobile crash reports from the weekend',
  'Ship the onboarding email tweaks',
  'Profile the search endpoint (p95 is 800 ms)',
  'Update the runbook for the queue backlog alert',
  'Demo the new dashboard to the support team',
  'Fix the time-zone bug in the reminders job',
  'Clean up feature flags older than 90 days',
  'Draft Q4 goals for the team',
];
/** Linus's blocker, the same words three days running (today's included), naming the demo person. */
export const LINUS_BLOCKER = 'Waiting on @ada to review the **webhook retry** change';
const MOODS: Mood[] = ['focused', 'happy', 'calm', 'nerdy', 'confident', 'tired', 'thoughtful', 'excited'];

function at(date: string, time: string): string {
  return isoSeconds(new Date(`${date}T${time}`));
}

/**
 * When something of today happened: `time` on `date` in the person's zone when that is already
 * `minutesBefore` minutes past at `now`, else `minutesBefore` minutes before `now` (never before the
 * day began on this machine, never after `now`). The sandbox's clock is never ahead of now, whatever
 * the hour it starts at.
 */
export function placedToday(now: Date, date: string, zone: string, time: string, minutesBefore: number): string {
  const meant = instantInZone(date, time, zone) ?? new Date(`${date}T${time}`);
  const latest = now.getTime() - minutesBefore * 60_000;
  const dayStart = new Date(`${date}T00:00:00`).getTime();
  const at = meant.getTime() <= latest ? meant.getTime() : Math.max(latest, Math.min(dayStart, now.getTime()));
  return isoSeconds(new Date(Math.min(at, now.getTime())));
}

function bullets(seed: number, count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(`- ${WORK[(seed * 7 + i * 5) % WORK.length]}`);
  return lines.join('\n');
}

/** Fresh demo data whose history ends on the local date of `now`. */
export function demoData(now: Date, token = DEMO_TOKEN): SandboxData {
  const today = localDateKey(now);
  const start = addDays(today, -14);
  const ada = person('ada', 'Ada Lovelace', 'Staff Engineer', 'London', 'London', '<p>Enchantress of numbers. Ask me about <strong>engines</strong>.</p>');
  const grace = person(
    'grace',
    'Grace Hopper',
    'Engineering Manager',
    'New York',
    'Eastern Time (US & Canada)',
    '<p>It is easier to ask forgiveness than it is to get permission.</p>',
  );
  const linus = person('linus', 'Linus Torvalds', 'Backend Engineer', 'Portland', 'America/Los_Angeles', null);
  const margaret = person(
    'margaret',
    'Margaret Hamilton',
    'Mobile Lead',
    'Boston',
    'Eastern Time (US & Canada)',
    '<p>Software engineering, <em>before it had a name</em>.</p>',
  );
  const alan = person('alan', 'Alan Turing', 'Mobile Engineer', 'Manchester', 'Europe/London', null);
  // An agent: a person of kind "agent" (docs/api.md § The person, people and teams: `kind` is human or agent) that writes the
  // Platform team's weekly summary. It is a member of Platform: it checks in with the team, and its
  // digest holds its teammates' check-ins.
  const scribe: PersonRecord = {
    ...person('scribe', 'Scribe (agent)', 'Release notes agent', 'The cloud', 'UTC', '<p>I write the weekly summary.</p>'),
    kind: 'agent',
  };
  const people = [ada, grace, linus, margaret, alan, scribe];
  for (const p of people) {
    p.created_at = `${addDays(today, -400)}T09:00:00Z`;
    p.updated_at = `${addDays(today, -20)}T09:00:00Z`;
  }
  const platform: TeamRecord = {
    id: stableUuid('team:platform'),
    name: 'Platform',
    schedule: EVERY_DAY,
    people_ids: [ada.id, grace.id, linus.id, scribe.id],
  };
  const mobile: TeamRecord = {
    id: stableUuid('team:mobile'),
    name: 'Mobile',
    schedule: WEEKDAYS,
    people_ids: [ada.id, margaret.id, alan.id],
  };

  const data: SandboxData = {
    version: 1,
    account: { id: stableUuid('account:demo'), name: 'Analytical Engines Ltd' },
    start_date: start,
    people,
    teams: [platform, mobile],
    absences: [
      { person_id: ada.id, from: addDays(today, -9), to: addDays(today, -8) },
      { person_id: alan.id, from: addDays(today, -1), to: addDays(today, 2) },
    ],
    tokens: [
      { token, person_id: ada.id, scope: 'write' },
      { token: DEMO_READ_TOKEN, person_id: ada.id, scope: 'read' },
      { token: 'sandbox_pat_grace', person_id: grace.id, scope: 'write' },
      { token: 'sandbox_pat_linus', person_id: linus.id, scope: 'write' },
      { token: 'sandbox_pat_scribe', person_id: scribe.id, scope: 'write' },
    ],
    check_ins: [],
    comments: [],
    reactions: [],
    goals: [],
    goal_updates: [],
    activities: [],
    echo_questions: [],
    echo_answers: [],
  };

  // Months before the last two weeks (sandbox/history.ts): what `checkin stats` draws.
  addHistory(data, today, now);

  // Fill in the history: everyone's check-ins before today, a few left empty, one blocked day.
  // Linus's empty days are days he was off sick: marked absent after they were generated.
  const service = new SandboxService(data, () => now, '');
  people.forEach((p, pi) => {
    let lastIntentions: string | null = null;
    for (let day = 14, n = 0; day >= 1; day--) {
      const date = addDays(today, -day);
      if (!service.exists(p.id, date)) continue;
      n++;
      // Linus is blocked on Ada's review for the last two days and today: those days are never missed.
      const linusBlocked = p === linus && day <= 2;
      if ((pi + n) % 6 === 0 && day > 1 && !linusBlocked) {
        // a missed day (yesterday is always filled in)
        if (p === linus) {
          const stamp = at(date, '07:00:00');
          data.check_ins.push({ id: checkInId(p.id, date), person_id: p.id, date, ...noAnswers(), completed_at: null, updated_at: stamp, absent: true });
        }
        continue;
      }
      const intentions = bullets(pi * 3 + n, 2 + ((pi + n) % 2));
      const blocked = p === grace && day === 3;
      const rec: CheckInRecord = {
        id: checkInId(p.id, date),
        person_id: p.id,
        date,
        previous: lastIntentions ?? bullets(pi + n + 1, 2),
        intentions,
        blockers: blocked ? 'Waiting on **security review** of the billing webhooks — @linus can you nudge?' : linusBlocked ? LINUS_BLOCKER : null,
        mood: blocked || linusBlocked ? 'stressed' : MOODS[(pi + n) % MOODS.length]!,
        previous_completed: (pi + n) % 4 !== 0,
        team_ids: null,
        completed_at: at(date, `09:${String(10 + pi * 7).padStart(2, '0')}:00`),
        updated_at: at(date, `09:${String(10 + pi * 7).padStart(2, '0')}:00`),
      };
      data.check_ins.push(rec);
      lastIntentions = intentions;
    }
  });
  // Today: Grace has already checked in (and Linus, below); Ada (the demo person) has not. Their
  // mornings (08:45 in New York, 08:30 in Portland) when those have come, else a little before the
  // sandbox started: Linus first, then Grace, then her comment.
  const linusAt = placedToday(now, today, linus.time_zone, '08:30:00', 30);
  const graceAt = placedToday(now, today, grace.time_zone, '08:45:00', 15);
  if (service.exists(grace.id, today)) {
    data.check_ins.push({
      id: checkInId(grace.id, today),
      person_id: grace.id,
      date: today,
      previous: '- Ran the sprint review\n- Unblocked the webhook security review',
      intentions: '- 1:1s with @ada and @linus\n- Plan the on-call rotation',
      blockers: null,
      mood: 'happy',
      previous_completed: true,
      team_ids: null,
      completed_at: graceAt,
      updated_at: graceAt,
    });
  }

  // Today: Linus is still blocked, three days running, on Ada (the demo person): `checkin status`
  // says so, `checkin team` marks it.
  if (service.exists(linus.id, today)) {
    data.check_ins.push({
      id: checkInId(linus.id, today),
      person_id: linus.id,
      date: today,
      previous: '- Load-tested the webhook retries',
      intentions: '- Write up the retry numbers\n- On-call handover',
      blockers: LINUS_BLOCKER,
      mood: 'stressed',
      previous_completed: true,
      team_ids: null,
      completed_at: linusAt,
      updated_at: linusAt,
    });
  }

  // Comments and reactions on Ada's most recent filled-in check-ins.
  const adaRecent = data.check_ins.filter((c) => c.person_id === ada.id).sort((a, b) => b.date.localeCompare(a.date));
  const [last, before] = adaRecent;
  if (last) {
    data.comments.push(
      {
        id: stableUuid(`comment:1:${last.id}`),
        body: 'Nice progress! Ping me when the migration is ready for review.',
        person_id: grace.id,
        resource: { type: 'check-in', id: last.id },
        created_at: at(last.date, '10:02:00'),
      },
      {
        id: stableUuid(`comment:2:${last.id}`),
        body: 'I can pair on the `checkout` flake after lunch, @ada.',
        person_id: linus.id,
        resource: { type: 'check-in', id: last.id },
        created_at: at(last.date, '11:30:00'),
      },
    );
    data.reactions.push(
      {
        id: stableUuid(`reaction:1:${last.id}`),
        name: 'tada',
        emoji: '🎉',
        person_id: grace.id,
        resource: { type: 'check-in', id: last.id },
        created_at: at(last.date, '10:01:00'),
      },
      {
        id: stableUuid(`reaction:2:${last.id}`),
        name: 'rocket',
        emoji: '🚀',
        person_id: margaret.id,
        resource: { type: 'check-in', id: last.id },
        created_at: at(last.date, '12:15:00'),
      },
    );
  }
  if (before) {
    data.comments.push({
      id: stableUuid(`comment:3:${before.id}`),
      body: 'Thanks for the **design doc** — left a few notes inline.',
      person_id: margaret.id,
      resource: { type: 'check-in', id: before.id },
      created_at: at(before.date, '14:20:00'),
    });
  }

  // Goals: a team goal with a child (Ada's billing goal), Margaret's crash goal, and one with no update yet.
  const revenue = {
    id: stableUuid('goal:revenue'),
    title: 'Grow self-serve revenue',
    description: 'Company goal for the half.',
    parent_id: null,
    start_date: start,
    end_date: addDays(today, 120),
    owner_id: grace.id,
    team_ids: [platform.id],
    contributor_ids: [grace.id],
    update_cadence: 'monthly',
    private: false,
    archived: false,
  };
  const billing = {
    id: stableUuid('goal:billing'),
    title: 'Ship the v2 billing API',
    description: 'Invoices, webhooks and retries.',
    parent_id: revenue.id,
    start_date: start,
    end_date: addDays(today, 40),
    owner_id: ada.id,
    team_ids: [platform.id],
    contributor_ids: [linus.id],
    update_cadence: 'weekly',
    private: false,
    archived: false,
  };
  const crashes = {
    id: stableUuid('goal:crashes'),
    title: 'Halve the mobile crash rate',
    description: null,
    parent_id: null,
    start_date: start,
    end_date: addDays(today, 60),
    owner_id: margaret.id,
    team_ids: [mobile.id],
    contributor_ids: [alan.id],
    update_cadence: 'weekly',
    private: false,
    archived: false,
  };
  const handbook = {
    id: stableUuid('goal:handbook'),
    title: 'Write the on-call handbook',
    description: null,
    parent_id: null,
    start_date: today,
    end_date: null,
    owner_id: linus.id,
    team_ids: [platform.id],
    contributor_ids: [],
    update_cadence: 'weekly',
    private: false,
    archived: false,
  };
  data.goals.push(revenue, billing, crashes, handbook);
  const update = (goalId: string, who: string, n: number, daysAgo: number, title: string, body: string, progress: number, confidence: number) => {
    const stamp = at(addDays(today, -daysAgo), '16:00:00');
    data.goal_updates.push({
      id: stableUuid(`goal-update:${goalId}:${n}`),
      goal_id: goalId,
      person_id: who,
      title,
      body,
      progress,
      confidence,
      created_at: stamp,
      updated_at: stamp,
    });
  };
  update(billing.id, ada.id, 1, 10, 'Kick-off', 'Scoped the endpoints with @grace. First milestone: **invoices**.', 10, 90);
  update(billing.id, ada.id, 2, 3, 'Invoices endpoint in review', '- Invoices endpoint done\n- Webhooks blocked on security review', 35, 60);
  update(crashes.id, margaret.id, 1, 12, 'Baseline measured', 'Crash-free sessions at 97.1%; target 98.6%.', 5, 90);
  update(crashes.id, margaret.id, 2, 2, 'Top three crashes fixed', 'Crash-free sessions now **98.0%**.', 60, 90);
  const lastUpdate = data.goal_updates[1]!;
  data.comments.push({
    id: stableUuid('comment:goal-update:1'),
    body: 'Security review is booked for Thursday.',
    person_id: grace.id,
    resource: { type: 'goal-update', id: lastUpdate.id },
    created_at: at(addDays(today, -2), '09:00:00'),
  });
  data.reactions.push({
    id: stableUuid('reaction:goal-update:1'),
    name: 'eyes',
    emoji: '👀',
    person_id: linus.id,
    resource: { type: 'goal-update', id: lastUpdate.id },
    created_at: at(addDays(today, -2), '09:05:00'),
  });

  // Comments that @mention people: Grace asks Ada on Linus's check-in, and the agent on her own.
  const linusRecent = data.check_ins
    .filter((c) => c.person_id === linus.id && c.completed_at && c.date < today)
    .sort((a, b) => b.date.localeCompare(a.date))[1];
  if (linusRecent) {
    data.comments.push({
      id: stableUuid(`comment:mention:${linusRecent.id}`),
      body: 'Could @ada look at the retry numbers before Friday?',
      person_id: grace.id,
      resource: { type: 'check-in', id: linusRecent.id },
      created_at: at(linusRecent.date, '15:40:00'),
    });
  }
  const graceToday = data.check_ins.find((c) => c.person_id === grace.id && c.date === today);
  if (graceToday) {
    data.comments.push({
      id: stableUuid(`comment:mention:${graceToday.id}`),
      body: '@scribe please put the sprint review in the weekly summary.',
      person_id: grace.id,
      resource: { type: 'check-in', id: graceToday.id },
      created_at: [placedToday(now, today, grace.time_zone, '08:50:00', 10), graceAt].sort().at(-1)!,
    });
  }

  // A handful of activities, grouped by the labels the service shows.
  const activity = (n: number, kind: string, who: string, daysAgo: number, title: string, group: string, description: string, url: string) =>
    data.activities.push({
      id: stableUuid(`activity:${n}`),
      kind,
      group,
      title,
      description,
      url,
      recorded_at: at(addDays(today, -daysAgo), '13:00:00'),
      person_id: who,
    });
  activity(
    1,
    'github_pr',
    ada.id,
    1,
    'Add invoices endpoint (#412)',
    'GitHub PR',
    'Merged PR in engines/billing: Add invoices endpoint (#412)',
    'https://github.com/engines/billing/pull/412',
  );
  activity(
    2,
    'github_pr',
    linus.id,
    2,
    'Fix flaky checkout test (#409)',
    'GitHub PR',
    'Merged PR in engines/web: Fix flaky checkout test (#409)',
    'https://github.com/engines/web/pull/409',
  );
  activity(3, 'jira', margaret.id, 3, 'MOB-88 Crash on resume from background', 'Jira', 'Moved MOB-88 to Done', 'https://engines.atlassian.net/browse/MOB-88');
  activity(4, 'jira', ada.id, 4, 'PLAT-311 Rate limiter design', 'Jira', 'Moved PLAT-311 to In Review', 'https://engines.atlassian.net/browse/PLAT-311');
  activity(
    5,
    'github_pr',
    alan.id,
    5,
    'Retry uploads on flaky networks (#77)',
    'GitHub PR',
    'Merged PR in engines/mobile: Retry uploads on flaky networks (#77)',
    'https://github.com/engines/mobile/pull/77',
  );

  // An echo: a weekly question and its last answer.
  const weekly = {
    id: stableUuid('echo:weekly'),
    prompt: 'Summarise what the Platform team shipped this week, for the company update.',
    title: 'Platform weekly',
    answer_frequency: 'weekly',
    answer_day: 'friday',
    answer_time: '16:00',
    answer_time_zone: 'London',
    paused_at: null,
    created_at: `${addDays(today, -60)}T10:00:00Z`,
    updated_at: `${addDays(today, -60)}T10:00:00Z`,
  };
  // An older one, paused: it has no next answer.
  const retro = {
    id: stableUuid('echo:retro'),
    prompt: 'What should the Mobile team start, stop and continue doing?',
    title: 'Mobile retro',
    answer_frequency: 'weekly',
    answer_day: 'monday',
    answer_time: '09:30',
    answer_time_zone: 'Eastern Time (US & Canada)',
    paused_at: `${addDays(today, -30)}T12:00:00Z`,
    created_at: `${addDays(today, -90)}T10:00:00Z`,
    updated_at: `${addDays(today, -30)}T12:00:00Z`,
  };
  data.echo_questions.push(weekly, retro);
  data.echo_answers.push({
    id: stableUuid('echo-answer:1'),
    question_id: weekly.id,
    title: 'Platform weekly',
    body: '- The **invoices endpoint** shipped\n- Webhooks wait on a security review',
    published_at: at(addDays(today, -2), '16:00:00'),
  });
  // This week's: the summary is still being written (body null), not published yet.
  data.echo_answers.push({ id: stableUuid('echo-answer:2'), question_id: weekly.id, title: 'Platform weekly', body: null, published_at: null });
  data.echo_answers.push({
    id: stableUuid('echo-answer:3'),
    question_id: retro.id,
    title: 'Mobile retro',
    body: '## Start\n- Pairing on crash fixes with @alan\n\n## Stop\n- Shipping on *Fridays*\n\n## Continue\n- The `crash-free` dashboard',
    published_at: at(addDays(today, -35), '09:30:00'),
  });
  return data;
}

export interface DemoSize {
  /** People in all (the demo's five and more, generated); the extra ones form the team "Guild", which checks in every day. */
  people?: number;
  /** Days of history, today included. */
  days?: number;
}

/**
 * Demo data at scale: `people` people and `days` days of history, every past check-in of the
 * extra people filled in (20,000 check-ins = 200 people × 100 days).
 */
export function scaledDemoData(now: Date, token: string, size: DemoSize): SandboxData {
  const data = demoData(now, token);
  const today = localDateKey(now);
  if (size.days !== undefined) data.start_date = addDays(today, -(Math.max(1, size.days) - 1));
  const humans = data.people.filter((p) => p.kind === 'human').length;
  const extra = Math.max(0, (size.people ?? humans) - humans);
  if (extra === 0) return data;
  const guild: TeamRecord = { id: stableUuid('team:guild'), name: 'Guild', schedule: EVERY_DAY, people_ids: [] };
  data.teams.push(guild);
  for (let i = 0; i < extra; i++) {
    const p = person(`member${i + 1}`, `Member ${String(i + 1).padStart(5, '0')}`, 'Engineer', 'Remote', i % 2 ? 'UTC' : 'Pacific Time (US & Canada)', null);
    data.people.push(p);
    guild.people_ids.push(p.id);
    for (let date = today; date >= data.start_date; date = addDays(date, -1)) {
      if (date === today) continue;
      const stamp = at(date, '09:00:00');
      data.check_ins.push({
        id: checkInId(p.id, date),
        person_id: p.id,
        date,
        previous: bullets(i, 2),
        intentions: bullets(i + 1, 2),
        blockers: (i + date.length) % 17 === 0 ? 'Waiting on review' : null,
        mood: MOODS[i % MOODS.length]!,
        previous_completed: true,
        team_ids: null,
        completed_at: stamp,
        updated_at: stamp,
      });
    }
  }
  return data;
}
