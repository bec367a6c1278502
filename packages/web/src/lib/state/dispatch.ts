import * as G from './guild-events.js';
import * as M from './message-events.js';
import * as I from './interaction-events.js';
import * as R from './read-states.js';
import type { Store } from './store.js';

/** Routes each Gateway dispatch to the handler that folds it into the store. Unknown events are ignored. */
export function applyDispatch(store: Store, t: string, d: any): void {
  switch (t) {
    case 'READY':
      G.onReady(store, d);
      return R.onReadyReadStates(store, d);
    case 'GUILD_CREATE':
      return G.onGuildCreate(store, d);
    case 'GUILD_UPDATE':
      return G.onGuildUpdate(store, d);
    case 'GUILD_DELETE':
      return G.onGuildDelete(store, d);
    case 'CHANNEL_CREATE':
    case 'CHANNEL_UPDATE':
    case 'CHANNEL_DELETE':
    case 'THREAD_CREATE':
    case 'THREAD_UPDATE':
    case 'THREAD_DELETE':
      return G.onChannel(store, t, d);
    case 'THREAD_LIST_SYNC':
      return G.onThreadListSync(store, d);
    case 'GUILD_MEMBER_ADD':
    case 'GUILD_MEMBER_UPDATE':
    case 'GUILD_MEMBER_REMOVE':
      return G.onMember(store, t, d);
    case 'GUILD_MEMBERS_CHUNK':
      return G.onMembersChunk(store, d);
    case 'GUILD_ROLE_CREATE':
    case 'GUILD_ROLE_UPDATE':
    case 'GUILD_ROLE_DELETE':
      return G.onRole(store, t, d);
    case 'GUILD_EMOJIS_UPDATE':
      return G.onEmojis(store, d);
    case 'PRESENCE_UPDATE':
      return G.setPresences(store, [d]);
    case 'VOICE_STATE_UPDATE':
      return G.onVoiceState(store, d);
    case 'USER_UPDATE':
      if (d?.id === store.state.me?.id && d.username) store.set({ me: { ...store.state.me!, ...d } });
      return;
    case 'MESSAGE_CREATE':
      R.onMessageCreateRead(store, d);
      return M.onMessageCreate(store, d);
    case 'MESSAGE_ACK':
      return R.onMessageAck(store, d);
    case 'MESSAGE_UPDATE':
      return M.onMessageUpdate(store, d);
    case 'MESSAGE_DELETE':
    case 'MESSAGE_DELETE_BULK':
      return M.onMessageDelete(store, d);
    case 'MESSAGE_REACTION_ADD':
    case 'MESSAGE_REACTION_REMOVE':
    case 'MESSAGE_REACTION_REMOVE_ALL':
    case 'MESSAGE_REACTION_REMOVE_EMOJI':
      return M.onReaction(store, t, d);
    case 'MESSAGE_POLL_VOTE_ADD':
    case 'MESSAGE_POLL_VOTE_REMOVE':
      return M.onPollVote(store, t, d);
    case 'TYPING_START':
      return M.onTyping(store, d);
    case 'CHANNEL_PINS_UPDATE':
      return store.update<'pinsVersion', number>('pinsVersion', d.channel_id, (v) => (v ?? 0) + 1);
    case 'INTERACTION_CREATE':
      return I.onInteractionCreate(store, d);
    case 'INTERACTION_SUCCESS':
      return I.onInteractionSuccess(store, d);
    case 'INTERACTION_FAILURE':
      return I.onInteractionFailure(store, d);
    case 'INTERACTION_MODAL_CREATE':
      return I.onModalCreate(store, d);
    case 'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE':
      return I.onAutocomplete(store, d);
    default:
  }
}
