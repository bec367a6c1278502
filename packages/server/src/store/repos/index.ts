import { sql, type Kysely } from 'kysely';
import type { Store } from '../db.js';
import type { DB } from '../schema.js';
import { ActivitiesRepo } from './activities.js';
import { ApplicationsRepo } from './applications.js';
import { AuthRepo } from './auth.js';
import { ChannelsRepo } from './channels.js';
import { CommandsRepo } from './commands.js';
import { CommerceRepo } from './commerce.js';
import { EventWebhooksRepo } from './event-webhooks.js';
import { ExpressionsRepo } from './expressions.js';
import { FilesRepo } from './files.js';
import { GuildsRepo } from './guilds.js';
import { InteractionsRepo } from './interactions.js';
import { InvitesRepo } from './invites.js';
import { LobbiesRepo } from './lobbies.js';
import { MembersRepo } from './members.js';
import { MessagesRepo } from './messages.js';
import { ModerationRepo } from './moderation.js';
import { OAuthRepo } from './oauth.js';
import { PollsRepo } from './polls.js';
import { ProvisionalRepo } from './provisional.js';
import { ReactionsRepo } from './reactions.js';
import { ReadStatesRepo } from './read-states.js';
import { RelationshipsRepo } from './relationships.js';
import { RolesRepo } from './roles.js';
import { ScheduledEventsRepo } from './scheduled-events.js';
import { SocialRepo } from './social.js';
import { ThreadsRepo } from './threads.js';
import { UsersRepo } from './users.js';
import { WebhooksRepo } from './webhooks.js';
import { exportSnapshot, importSnapshot, type Snapshot } from '../snapshot.js';

/**
 * The repositories, one per aggregate: the only code that knows how things are stored. Services reach storage only
 * through these (`ctx.repos`); a write that spans aggregates runs in `transaction`, whose repositories share one
 * transaction. See docs/architecture.md for where a new query goes.
 */
export class Repos {
  readonly activities: ActivitiesRepo;
  readonly applications: ApplicationsRepo;
  readonly auth: AuthRepo;
  readonly channels: ChannelsRepo;
  readonly commands: CommandsRepo;
  readonly commerce: CommerceRepo;
  readonly eventWebhooks: EventWebhooksRepo;
  readonly expressions: ExpressionsRepo;
  readonly files: FilesRepo;
  readonly guilds: GuildsRepo;
  readonly interactions: InteractionsRepo;
  readonly invites: InvitesRepo;
  readonly lobbies: LobbiesRepo;
  readonly members: MembersRepo;
  readonly messages: MessagesRepo;
  readonly moderation: ModerationRepo;
  readonly oauth: OAuthRepo;
  readonly polls: PollsRepo;
  readonly provisional: ProvisionalRepo;
  readonly reactions: ReactionsRepo;
  readonly readStates: ReadStatesRepo;
  readonly relationships: RelationshipsRepo;
  readonly roles: RolesRepo;
  readonly scheduledEvents: ScheduledEventsRepo;
  readonly social: SocialRepo;
  readonly threads: ThreadsRepo;
  readonly users: UsersRepo;
  readonly webhooks: WebhooksRepo;

  constructor(
    readonly store: Store,
    private readonly db: Kysely<DB> = store.db,
  ) {
    this.activities = new ActivitiesRepo(db, store);
    this.applications = new ApplicationsRepo(db, store);
    this.auth = new AuthRepo(db, store);
    this.channels = new ChannelsRepo(db, store);
    this.commands = new CommandsRepo(db, store);
    this.commerce = new CommerceRepo(db, store);
    this.eventWebhooks = new EventWebhooksRepo(db, store);
    this.expressions = new ExpressionsRepo(db, store);
    this.files = new FilesRepo(db, store);
    this.guilds = new GuildsRepo(db, store);
    this.interactions = new InteractionsRepo(db, store);
    this.invites = new InvitesRepo(db, store);
    this.lobbies = new LobbiesRepo(db, store);
    this.members = new MembersRepo(db, store);
    this.messages = new MessagesRepo(db, store);
    this.moderation = new ModerationRepo(db, store);
    this.oauth = new OAuthRepo(db, store);
    this.polls = new PollsRepo(db, store);
    this.provisional = new ProvisionalRepo(db, store);
    this.reactions = new ReactionsRepo(db, store);
    this.readStates = new ReadStatesRepo(db, store);
    this.relationships = new RelationshipsRepo(db, store);
    this.roles = new RolesRepo(db, store);
    this.scheduledEvents = new ScheduledEventsRepo(db, store);
    this.social = new SocialRepo(db, store);
    this.threads = new ThreadsRepo(db, store);
    this.users = new UsersRepo(db, store);
    this.webhooks = new WebhooksRepo(db, store);
  }

  /** Runs `fn` in one transaction: everything written through `tx` commits together or not at all. Nests flat. */
  transaction<T>(fn: (tx: Repos) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return fn(this);
    return this.db.transaction().execute((trx) => fn(new Repos(this.store, trx)));
  }

  /** One round trip to the database (readiness probes). */
  async ping(): Promise<void> {
    await sql`SELECT 1`.execute(this.db);
  }

  /** The whole world as a snapshot (store/snapshot.ts). */
  snapshot(clock: number, lastId: string | null): Promise<Snapshot> {
    return exportSnapshot(this.db, this.store.dialect, clock, lastId);
  }

  /** Replaces the whole world by a snapshot's, in one transaction. */
  restore(snapshot: Snapshot): Promise<void> {
    return importSnapshot(this.db, this.store.dialect, snapshot);
  }
}
