/**
 * GitHub webhook deliveries turned into an execute body, as the platform's `/github` endpoint does: one embed per
 * event, posted as "GitHub", with the sender as the embed author. The event type is GitHub's `X-GitHub-Event` header.
 * The events the docs list are rendered (commit_comment, create, delete, fork, issue_comment, issues, member, public,
 * pull_request, pull_request_review, pull_request_review_comment, push, release, watch, check_run, check_suite,
 * discussion, discussion_comment), and `star`, which the platform also posts (discord-api-docs#6586); any other event
 * or action is accepted and posts nothing. Titles follow the platform's `[repo] What happened: #n title` pattern;
 * the exact wording and colours of its templates are not published, so they are close, not identical.
 */
type Json = Record<string, any>;

const BLURPLE = 0x7289da;
const OPEN = 0xeb6420;
const PR_OPEN = 0x009800;
const CLOSED = 0x000000;
const COMMENT = 0xe68d60;

const cut = (s: unknown, n: number) => {
  const t = typeof s === 'string' ? s : '';
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};
const sha7 = (s: unknown) => (typeof s === 'string' ? s.slice(0, 7) : '');

interface Embed {
  title: string;
  url?: string;
  description?: string;
  color: number;
}

function render(event: string, p: Json): Embed | null {
  const repo = p.repository?.full_name ?? p.repository?.name ?? 'repository';
  const a = p.action;
  const issue = p.issue ?? p.pull_request;
  switch (event) {
    case 'push': {
      const branch = String(p.ref ?? '').replace(/^refs\/(heads|tags)\//, '');
      const commits: Json[] = Array.isArray(p.commits) ? p.commits : [];
      if (p.forced)
        return { title: `[${repo}] Branch ${branch} was force-pushed to \`${sha7(p.head_commit?.id)}\``, url: p.compare ?? undefined, color: BLURPLE };
      if (!commits.length) return null;
      const lines = commits
        .slice(0, 5)
        .map((c) => `[\`${sha7(c.id)}\`](${c.url}) ${cut(String(c.message ?? '').split('\n')[0], 50)} - ${c.author?.username ?? c.author?.name ?? ''}`);
      return {
        title: `[${repo}:${branch}] ${commits.length} new commit${commits.length === 1 ? '' : 's'}`,
        url: p.compare ?? undefined,
        description: lines.join('\n'),
        color: BLURPLE,
      };
    }
    case 'issues':
      if (a !== 'opened' && a !== 'closed' && a !== 'reopened') return null;
      return {
        title: `[${repo}] Issue ${a}: #${issue?.number} ${cut(issue?.title, 200)}`,
        url: issue?.html_url,
        description: a === 'opened' ? cut(issue?.body, 500) || undefined : undefined,
        color: a === 'closed' ? CLOSED : OPEN,
      };
    case 'issue_comment':
      if (a !== 'created') return null;
      return {
        title: `[${repo}] New comment on ${issue?.pull_request ? 'pull request' : 'issue'} #${issue?.number}: ${cut(issue?.title, 200)}`,
        url: p.comment?.html_url,
        description: cut(p.comment?.body, 500),
        color: COMMENT,
      };
    case 'pull_request': {
      if (a !== 'opened' && a !== 'closed' && a !== 'reopened') return null;
      const what = a === 'closed' && p.pull_request?.merged ? 'merged' : a;
      return {
        title: `[${repo}] Pull request ${what}: #${issue?.number} ${cut(issue?.title, 200)}`,
        url: issue?.html_url,
        description: a === 'opened' ? cut(issue?.body, 500) || undefined : undefined,
        color: a === 'closed' ? CLOSED : PR_OPEN,
      };
    }
    case 'pull_request_review':
      if (a !== 'submitted') return null;
      return {
        title: `[${repo}] Pull request review submitted: #${issue?.number} ${cut(issue?.title, 200)}`,
        url: p.review?.html_url,
        description: cut(p.review?.body, 500) || undefined,
        color: COMMENT,
      };
    case 'pull_request_review_comment':
      if (a !== 'created') return null;
      return {
        title: `[${repo}] New review comment on pull request #${issue?.number}: ${cut(issue?.title, 200)}`,
        url: p.comment?.html_url,
        description: cut(p.comment?.body, 500),
        color: COMMENT,
      };
    case 'commit_comment':
      return {
        title: `[${repo}] New comment on commit \`${sha7(p.comment?.commit_id)}\``,
        url: p.comment?.html_url,
        description: cut(p.comment?.body, 500),
        color: COMMENT,
      };
    case 'create':
      return { title: `[${repo}] New ${p.ref_type ?? 'branch'} created: ${p.ref ?? ''}`, url: p.repository?.html_url, color: BLURPLE };
    case 'delete':
      return { title: `[${repo}] ${p.ref_type === 'tag' ? 'Tag' : 'Branch'} deleted: ${p.ref ?? ''}`, url: p.repository?.html_url, color: CLOSED };
    case 'fork':
      return { title: `[${repo}] Fork created: ${p.forkee?.full_name ?? ''}`, url: p.forkee?.html_url, color: BLURPLE };
    case 'member':
      if (a !== 'added') return null;
      return { title: `[${repo}] New collaborator added: ${p.member?.login ?? ''}`, url: p.member?.html_url, color: BLURPLE };
    case 'public':
      return { title: `[${repo}] Now open sourced!`, url: p.repository?.html_url, color: BLURPLE };
    case 'release':
      if (a !== 'published') return null;
      return { title: `[${repo}] New release published: ${p.release?.tag_name ?? ''}`, url: p.release?.html_url, color: BLURPLE };
    case 'watch':
    case 'star':
      if (a !== 'started' && a !== 'created') return null;
      return { title: `[${repo}] New star added`, url: p.repository?.html_url, color: BLURPLE };
    case 'check_run':
    case 'check_suite': {
      const run = event === 'check_run' ? p.check_run : p.check_suite;
      if (a !== 'completed' || !run) return null;
      const suite = event === 'check_run' ? run.check_suite : run;
      const name = event === 'check_run' ? run.name : (suite?.app?.name ?? 'checks');
      return {
        title: `[${repo}] ${name} ${run.conclusion ?? 'completed'} on ${suite?.head_branch ?? sha7(suite?.head_sha)}`,
        url: run.html_url ?? run.details_url ?? undefined,
        color: run.conclusion === 'success' ? PR_OPEN : OPEN,
      };
    }
    case 'discussion':
      if (a === 'created')
        return {
          title: `[${repo}] New discussion #${p.discussion?.number}: ${cut(p.discussion?.title, 200)}`,
          url: p.discussion?.html_url,
          description: cut(p.discussion?.body, 500) || undefined,
          color: BLURPLE,
        };
      if (a === 'answered')
        return {
          title: `[${repo}] Discussion answered #${p.discussion?.number}: ${cut(p.discussion?.title, 200)}`,
          url: p.discussion?.answer_html_url ?? p.discussion?.html_url,
          description: cut(p.answer?.body, 500) || undefined,
          color: PR_OPEN,
        };
      return null;
    case 'discussion_comment':
      if (a !== 'created') return null;
      return {
        title: `[${repo}] New comment on discussion #${p.discussion?.number}: ${cut(p.discussion?.title, 200)}`,
        url: p.comment?.html_url,
        description: cut(p.comment?.body, 500),
        color: COMMENT,
      };
    default:
      return null;
  }
}

/** The execute body for one delivery, or null when the event posts nothing. */
export function githubToExecute(event: string, payload: unknown): Record<string, unknown> | null {
  if (!payload || typeof payload !== 'object') return null;
  const p = payload as Json;
  const embed = render(event, p);
  if (!embed) return null;
  const sender = p.sender ?? {};
  const author =
    typeof sender.login === 'string'
      ? { name: sender.login, ...(sender.html_url ? { url: sender.html_url } : {}), ...(sender.avatar_url ? { icon_url: sender.avatar_url } : {}) }
      : undefined;
  const clean = Object.fromEntries(Object.entries(embed).filter(([, v]) => v !== undefined && v !== ''));
  return { username: 'GitHub', embeds: [{ ...clean, ...(author ? { author } : {}) }] };
}
