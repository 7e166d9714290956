// What checkin answers with: one description per shape, for both faces. What `--json` prints and
// what an agent's tool returns are described once here (field names, types, the words a reader
// gets): the CLI's --json field lists are read from these (ui/output.ts, fieldsOf), its JSON is
// projected through them where checkin builds the object (project), the domain's types are
// inferred from them, and the agent's output schemas are made from the same descriptions
// (mcp/results.ts, through mcp/kit.ts schemaOf). The CLI's --json is the scripting contract
// (docs/commands/); where the agent carries less, it picks or omits from the one description. The
// service's own objects (a check-in, a goal…) are described in api/types.ts, as the service sends them.
import { CHECK_IN, REF } from '../api/types.js';
import { anything, arrayOf, bool, described, num, object, omit, oneOf, optional, orNull, str, type Infer, type Shape } from '../api/validate.js';

/** `s` or null, with words for a reader. */
const maybe = <T>(s: Shape<T>, words: string) => described(orNull(s), words);

// ---- A team's day (`checkin team --json`, the agent's team_day) ----

/** A person's state on a day, in the order a team's day lists them: the one vocabulary (core/member-states.ts has each one's words). */
export const MEMBER_STATES = ['blocked', 'pending', 'filled', 'absent', 'nothing-scheduled'] as const;
/** How long a blocker has stood: days in a row, since when, and whether the run may be longer than was looked at. */
export const BLOCKER_RUN = object({
  days: described(num, 'check-ins in a row (scheduled days) the blocker has stood, the day\'s included: 3 = "blocked 3 days"'),
  since: described(str, 'the first day of the run: from then on, each check-in of the person (absent days skipped) carried the blocker'),
  at_least: described(bool, 'the run reaches the first day looked at: it may be longer'),
});
/** A team's day: each member, their check-in that day, its state, and a blocked member's longest-standing blocker (null when not blocked or not counted). */
export const TEAM_DAY = described(
  object({
    team: REF,
    date: str,
    members: arrayOf(
      object({
        person: REF,
        state: oneOf(MEMBER_STATES),
        check_in: orNull(CHECK_IN),
        blocked_for: optional(maybe(BLOCKER_RUN, "how long a blocked member's longest-standing blocker has stood")),
      }),
    ),
  }),
  "a team's day: each member, their check-in, its state, and how long a blocked member's blocker has stood (blocked_for)",
);
export type TeamDay = Infer<typeof TEAM_DAY>;

// ---- Who the token belongs to (`checkin me --json`, the agent's me) ----

/** The person as checkin keeps them (config/store.ts CachedMe, less the zone's offsets): what `me` answers with. */
export const ME_RECORD = described(
  object({
    id: str,
    name: str,
    username: described(str, 'the @mention handle, without the @'),
    time_zone: optional(orNull(str)),
    teams: arrayOf(REF),
    fetched_at: described(str, 'when checkin last asked the service who this is (GET /me)'),
  }),
  'the person the token belongs to: id, name, @username, time zone, teams',
);

// ---- The token (`checkin auth status --json`; the CLI's alone) ----

/** Who the token belongs to, where it is kept and whether it works — never the token itself. */
/** One profile as `checkin auth status` lists it: from config.json and the cache, without asking the service or the keychain. */
export const AUTH_PROFILE = object({
  name: str,
  api_url: described(str, "the profile's service"),
  person: maybe(object({ id: str, name: str, username: str }), 'who its token belongs to, as last cached (null when not known)'),
  token: described(oneOf(['keychain', 'file', 'none']), 'where its token is kept: the keychain, the config file, or none (logged out)'),
  active: described(bool, 'whether this run uses it'),
});
export type AuthProfile = Infer<typeof AUTH_PROFILE>;
export const AUTH_STATUS = object({
  api_url: described(str, 'the service the token is for'),
  token_source: described(oneOf(['env', 'keychain', 'file']), 'where the token is kept: an environment variable, the keychain or the config file'),
  source: described(str, 'where the token is kept, as a person reads it (the variable, the keychain, the file)'),
  person: maybe(object({ id: str, name: str, username: str }), 'who the token belongs to (null when the service refused it)'),
  works: described(bool, 'whether the service answered GET /me with this token'),
  why: described(str, "why it does not work: the status and the service's words (empty when it works)"),
  profile: described(str, 'the profile in use (checkin help profiles)'),
  profile_from: described(
    oneOf(['flag', 'env', 'directory', 'config', 'default']),
    'why it is the one in use: --profile, CHECKIN_PROFILE, a folder\'s .checkin.json, `checkin auth switch`\'s default, or none named ("default")',
  ),
  profiles: described(arrayOf(AUTH_PROFILE), 'every profile config.json holds, in its order (no request is made for those not in use)'),
});
export type AuthStatus = Infer<typeof AUTH_STATUS>;

// ---- The inbox (`checkin inbox --json`, the agent's inbox) ----

/** What a reply goes on. */
export const COMMENTABLE_KINDS = ['check-in', 'goal-update'] as const;
/** A comment or reaction others left on one of my check-ins or goal updates. */
export const INBOX_ITEM = object({
  n: optional(described(num, "its number in the terminal's listing, for `checkin inbox --reply <n>` (the CLI's)")),
  kind: oneOf(['comment', 'reaction']),
  id: str,
  person: REF,
  created_at: str,
  body: optional(described(str, "the comment's Markdown")),
  emoji: optional(described(str, "the reaction's emoji")),
  name: optional(described(str, "the reaction's name")),
});
export type InboxItem = Infer<typeof INBOX_ITEM>;
/** One check-in or goal update with what others left on it, newest first. */
export const INBOX_THREAD = object({
  type: maybe(oneOf(COMMENTABLE_KINDS), 'what a reply goes on (null when the link does not say)'),
  id: maybe(str, "its id: a reply's (draft_comment, `checkin comments <id>`)"),
  date: optional(described(str, "the check-in's date")),
  title: optional(described(str, "the goal update's title")),
  url: orNull(str),
  items: arrayOf(INBOX_ITEM),
});
/** A teammate's open blocker that @mentions me: who, the words, and since when (days in a row). */
export const BLOCKED_ON_ME = object({
  person: orNull(REF),
  blockers: str,
  ...BLOCKER_RUN.fields,
  check_in_id: str,
});
export const INBOX = object({
  since: described(str, 'the first day looked at'),
  seen_before: maybe(str, 'what was seen before this look (only what is newer is listed; null: everything)'),
  threads: arrayOf(INBOX_THREAD),
  blocked_on_you: described(arrayOf(BLOCKED_ON_ME), "teammates whose open blocker @mentions me today (the CLI's: it asks for them alongside)"),
});
/** What the agent's inbox carries: the threads (its blockers tool says who is blocked). */
export const AGENT_INBOX = omit(INBOX, ['blocked_on_you']);

// ---- Today (`checkin status --json`; the agent reads today's check-in as a resource) ----

export const STATUS = object({
  date: described(str, "the person's today"),
  state: described(oneOf(MEMBER_STATES), "today's check-in's state"),
  check_in: orNull(CHECK_IN),
  unread: optional(described(num, 'new comments and reactions on my check-ins and goal updates (left out when not counted)')),
  drafts_waiting: optional(described(num, 'drafts of mine waiting to be sent (left out when the outbox could not be read)')),
  blocked_on_you: optional(INBOX.fields.blocked_on_you),
  profile: optional(described(str, 'the profile in use, where it is worth naming (as auth status names it): several profiles, or one chosen by name')),
});

// ---- The drafts waiting (`checkin drafts --json`, the agent's drafts) ----

const DRAFT_STATES =
  'waiting; being written or sent (process N); may have been sent (when); refused for its words (when): a resume leaves it, a send by its id sends it; edited after checkin stopped';
export const DRAFT = object({
  id: described(str, 'the draft id: what `checkin drafts send` and the send_* tools (as draft_id) take'),
  for: described(str, 'what it is for, in words'),
  target: described(object({ kind: str }), 'what it is for, as kept'),
  account: described(
    object({ api_url: str, person_id: optional(str), profile: optional(described(str, 'the profile it was kept under (none: kept before profiles)')) }),
    'the service, person and profile it was kept for',
  ),
  made: described(str, 'how it was written: typed, flag, piped, editor, agent, earlier'),
  created_at: str,
  saved_at: described(str, 'when it was last kept'),
  base: described(str, 'the target as the person last saw it: its updated_at, new (nothing there) or unknown'),
  state: described(str, DRAFT_STATES),
  here: described(bool, 'kept for this service and person'),
  kept_for: maybe(str, 'whose it is when not here'),
  words: described(str, 'its first words'),
  text: described(str, 'its words whole'),
  content: described(anything, 'what was kept, as kept'),
});
export type DraftRow = Infer<typeof DRAFT>;

// ---- The open blockers (the agent's blockers) ----

export const OPEN_BLOCKER = object({
  person: orNull(REF),
  teams: described(arrayOf(REF), 'the teams asked about that the check-in is shared with'),
  blockers: described(str, 'the blockers, as written'),
  check_in: CHECK_IN,
  reported_at: maybe(str, "when the day's check-in was filled in"),
  ...BLOCKER_RUN.fields,
});
export type OpenBlocker = Infer<typeof OPEN_BLOCKER>;
export const OPEN_BLOCKERS = object({
  date: str,
  team_ids: arrayOf(str),
  looked_back_to: described(str, 'the first day looked at for since'),
  blockers: arrayOf(OPEN_BLOCKER),
});
export type OpenBlockers = Infer<typeof OPEN_BLOCKERS>;

// ---- The suggestion for previous (`checkin today --suggest --json`; the agent's suggest_previous carries its sources) ----

export const SUGGESTION = object({
  previous: described(orNull(str), 'the suggestion as one Markdown text (null when there is nothing)'),
  intentions_from: maybe(str, 'the date of the check-in whose intentions it starts from'),
  since_last_check_in: described(arrayOf(str), 'what was done since then: activities and commits, a line each'),
});
export const SUGGESTION_SOURCE = object({
  source: oneOf(['intentions', 'activity', 'commits']),
  title: str,
  date: optional(str),
  lines: arrayOf(str),
});

// ---- The feed (only the agent answers with it so far) ----

/** What a reply goes on: draft_comment takes its type (as on) and id. */
export const REPLY_ON = described(object({ type: oneOf(COMMENTABLE_KINDS), id: str }), 'what a reply goes on: draft_comment takes its type (as on) and id');
export const FEED_ITEM = object({
  id: str,
  category: described(str, 'comment, check-in or goal-update (the service may add others)'),
  published_at: str,
  by: maybe(REF, 'whose words it is'),
  title: orNull(str),
  body: orNull(str),
  url: orNull(str),
  goal: orNull(object({ id: str, title: orNull(str) })),
  reply_on: optional(REPLY_ON),
});
export type FeedItem = Infer<typeof FEED_ITEM>;
export const FEED = object({
  since: described(str, 'the time the feed starts at (ISO 8601)'),
  source: described(oneOf(['digest', 'check-ins']), "digest: the service's feed; check-ins: this service has no digest, so my teams' check-ins only"),
  items: arrayOf(FEED_ITEM),
  more_may_follow: described(bool, 'as many entries as asked for came back: ask again from the oldest one'),
});
export type Feed = Infer<typeof FEED>;
