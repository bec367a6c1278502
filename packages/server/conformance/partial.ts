/**
 * What still answers partly from constants or leaves platform behaviour out, with the reason. Kept by hand and
 * rendered into docs/conformance.md; a route answering a constant belongs here, never among the silent passes.
 */
export interface Partial {
  what: string;
  why: string;
  /** Routes (`METHOD /path`) that answer from constants: their operations are reported `partial`, never `pass`. */
  routes?: string[];
}

export const PARTIAL: Partial[] = [
  {
    what: '`GET /gateway/bot` `session_start_limit`',
    why: 'a fixed 1000/999 budget: identifies are not counted per bot per day yet',
    routes: ['GET /gateway/bot'],
  },
  { what: '`widget.png` icon', why: "the widget image draws the guild's initials, not its stored icon" },
  { what: '`widget.json` member avatars', why: '`avatar_url` points at the default-avatar path; the CDN does not serve default avatars' },
  {
    what: 'join requests',
    why: 'applications need the MEMBER_VERIFICATION_GATE_ENABLED feature; the verification form itself (questions) is not configurable, so `form_responses` are stored as sent',
  },
  {
    what: 'GitHub-compatible webhook embeds',
    why: 'the platform does not publish its templates: titles follow its `[repo] What happened: #n title` pattern and the 18 documented events (and `star`), but the exact wording, colours and commit-list layout are close, not identical',
  },
  { what: 'Slack-compatible webhook', why: "Slack's `<url|text>` link markup is passed through as typed rather than rewritten" },
  {
    what: '`POST /applications/{id}/attachment`',
    why: "the uploaded file is kept indefinitely; the platform's ephemeral attachments expire, and their CDN URLs carry signed `ex`/`is`/`hm` parameters that Accord does not add",
  },
  { what: '`GET /channels/{id}/application-command-index`', why: 'built on the web client branch (wip/web, not merged yet), so it answers 404 here' },
  {
    what: 'DM and group-DM calls',
    why: "a rung recipient stays in `ringing` until they join, decline (`stop-ringing`) or the call ends; the platform also stops ringing after a while but does not publish when, so Accord never times a ring out. Calls live in the server's memory: a restart ends them without CALL_DELETE, and their CALL message keeps `ended_timestamp: null`. A person holds one voice connection per Gateway session (joining a call leaves guild voice and back); two sessions of one user may still be in two places",
  },
  {
    what: 'voice gateway rate limit (close 4021 Disconnected: Rate Limited)',
    why: "the platform does not publish its budget; Accord closes a client after 120 messages (JSON or binary, heartbeats included) in 60 s, the main gateway's budget",
  },
];
