/**
 * The web game's page: a guest signs in with the game's own identity (a provisional Accord account), adds friends and
 * sees their presence, meets them in a lobby with its chat, invites a friend into the lobby (an activity invite), and
 * talks to them in the lobby's call. Everything goes through @accord/social-sdk's browser build.
 */
import {
  ActivityGamePlatforms,
  AuthorizationArgs,
  AuthorizationTokenType,
  CallStatus,
  Client,
  ExternalAuthType,
  RelationshipType,
  Status,
  StatusType,
} from '/sdk/browser.js';

const $ = (id) => document.getElementById(id);
const config = await (await fetch('/config.json')).json();
const client = new Client(`${config.accordUrl}/api`, config.accordUrl);
client.setApplicationId(config.applicationId);
window.game = { client, lobbyId: null, call: null };

function item(text, ...children) {
  const li = document.createElement('li');
  li.textContent = text;
  li.append(...children);
  return li;
}
function button(label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.onclick = onClick;
  return b;
}
const STATUS = Object.fromEntries(Object.entries(StatusType).map(([k, v]) => [v, k.toLowerCase()]));

// ---- sign in: the game's server signs an ID token for the guest; Accord turns it into a provisional account
$('guest').onsubmit = async (e) => {
  e.preventDefault();
  const name = e.target.elements.namedItem('name').value;
  const { idToken } = await (await fetch('/guest', { method: 'POST', body: JSON.stringify({ name }) })).json();
  window.game.idToken = idToken;
  const token = await client.getProvisionalToken(config.applicationId, ExternalAuthType.OIDC, idToken);
  await play(token.accessToken);
};

async function play(accessToken) {
  await client.updateToken(AuthorizationTokenType.Bearer, accessToken);
  await client.connect();
  const me = client.getCurrentUserV2();
  $('me').textContent = `Playing as ${me.displayName()} (player id ${me.id()}${me.isProvisional() ? ', guest' : ', linked'})`;
  $('me').dataset.id = me.id();
  $('link').hidden = !me.isProvisional();
  $('signin').hidden = true;
  $('game').hidden = false;
  await showPresence(window.game.secret);
  renderFriends();
}

// ---- linking: Authorize with PKCE in a popup, then the guest account merges into the Accord account (friends stay)
$('link').onclick = async () => {
  const verifier = await client.createAuthorizationCodeVerifier();
  const args = new AuthorizationArgs();
  args.SetScopes(Client.getDefaultCommunicationScopes());
  args.SetCodeChallenge(verifier.Challenge());
  const { code, redirectUri } = await client.authorize(args, { redirectUri: `${window.location.origin}/authorize/callback` });
  let off = () => {};
  const ended = new Promise((resolve) => (off = client.on('statusChanged', ({ status }) => status === Status.Disconnected && resolve())));
  const token = await client.getTokenFromProvisionalMerge(
    config.applicationId,
    code,
    verifier.Verifier(),
    redirectUri,
    ExternalAuthType.OIDC,
    window.game.idToken,
  );
  // The guest's session ends with the merge; the game goes on as the Accord account.
  await ended;
  off();
  await play(token.accessToken);
};

// ---- friends and their presence
$('add-friend').onsubmit = async (e) => {
  e.preventDefault();
  await client.sendGameFriendRequestById(e.target.elements.namedItem('id').value);
  e.target.reset();
  renderFriends();
};
function renderFriends() {
  const list = $('friends');
  list.replaceChildren();
  for (const r of client.getRelationships()) {
    const type = r.gameRelationshipType();
    const user = r.user();
    const li = item(user.displayName());
    li.dataset.user = r.id();
    if (type === RelationshipType.PendingIncoming)
      li.append(
        ' wants to be friends ',
        button('Accept', () => client.acceptGameFriendRequest(r.id()).then(renderFriends)),
      );
    else if (type === RelationshipType.PendingOutgoing) li.append(' (request sent)');
    else if (type === RelationshipType.Friend) {
      const presence = document.createElement('span');
      presence.className = 'presence';
      const activity = user.gameActivity();
      presence.textContent = ` ${STATUS[user.status()]}${activity?.state ? `, ${activity.state}` : ''}`;
      li.dataset.status = STATUS[user.status()];
      li.append(presence);
      if (window.game.lobbyId)
        li.append(
          ' ',
          button('Invite', () => client.sendActivityInvite(r.id(), 'Join my lobby')),
        );
    } else continue;
    list.append(li);
  }
}
client.on('relationshipCreated', ({ userId }) => {
  renderFriends();
  // A new friend learns where we are from our next presence update: send it now.
  if (client.getRelationshipHandle(userId)?.gameRelationshipType() === RelationshipType.Friend) void showPresence(window.game.secret);
});
client.on('relationshipDeleted', renderFriends);
client.on('userUpdated', renderFriends);

/** Rich presence: in the menu, or in a lobby with its party and join secret (what an invite carries). */
async function showPresence(secret) {
  const lobby = secret && client.getLobbyHandle(window.game.lobbyId);
  await client.updateRichPresence(
    secret
      ? {
          state: 'In a lobby',
          details: 'Harbor',
          party: { id: `party-${window.game.lobbyId}`, currentSize: lobby?.lobbyMemberIds().length ?? 1, maxSize: 4 },
          secrets: { join: secret },
          supportedPlatforms: ActivityGamePlatforms.Desktop,
        }
      : { state: 'In the menu', details: 'Harbor' },
  );
}

// ---- the lobby and its chat
async function joinLobby(secret) {
  window.game.lobbyId = await client.createOrJoinLobby(secret);
  window.game.secret = secret;
  $('lobby').hidden = false;
  $('lobby').dataset.id = window.game.lobbyId;
  renderMembers();
  $('chat').replaceChildren();
  for (const m of (await client.getLobbyMessagesWithLimit(window.game.lobbyId, 50)).reverse()) addMessage(m);
  await showPresence(secret);
  renderFriends();
}
$('join-lobby').onsubmit = (e) => {
  e.preventDefault();
  void joinLobby(e.target.elements.namedItem('secret').value);
};
function renderMembers() {
  const lobby = client.getLobbyHandle(window.game.lobbyId);
  const names = (lobby?.lobbyMemberIds() ?? []).map((id) => client.getUser(id)?.displayName() ?? id);
  $('lobby-members').textContent = `In the lobby: ${names.join(', ')}`;
}
function addMessage(m) {
  if (m.lobbyId() !== window.game.lobbyId) return;
  const author = client.getUser(m.authorId())?.displayName() ?? m.authorId();
  $('chat').append(item(`${author}: ${m.content()}`));
}
$('say').onsubmit = async (e) => {
  e.preventDefault();
  const text = e.target.elements.namedItem('text').value;
  e.target.reset();
  await client.sendLobbyMessage(window.game.lobbyId, text);
};
client.on('messageCreated', ({ messageId }) => {
  const m = client.getMessageHandle(messageId);
  if (m) addMessage(m);
});
client.on('lobbyMemberAdded', renderMembers);
client.on('lobbyMemberRemoved', renderMembers);

// ---- invites: accepting one joins the inviter's lobby (its join secret)
client.on('activityInviteCreated', (invite) => {
  const from = client.getUser(invite.senderId)?.displayName() ?? invite.senderId;
  const li = item(
    `${from} invites you `,
    button('Accept', async () => {
      li.remove();
      await client.acceptActivityInvite(invite);
    }),
  );
  $('invites').append(li);
});
client.on('activityJoin', ({ joinSecret }) => void joinLobby(joinSecret));

// ---- voice: the lobby's call
$('voice').onclick = () => {
  const game = window.game;
  if (game.call) {
    void client.endCall(game.lobbyId);
    game.call = null;
    $('voice').textContent = 'Join voice';
    $('voice-status').textContent = '';
    return;
  }
  game.call = client.startCall(game.lobbyId);
  $('voice').textContent = 'Leave voice';
  const show = () => {
    const c = game.call;
    if (!c) return;
    const names = c.getParticipants().map((id) => client.getUser(id)?.displayName() ?? id);
    $('voice-status').textContent = `${c.getStatus() === CallStatus.Connected ? 'In voice' : 'Connecting'}${names.length ? ` with ${names.join(', ')}` : ''}`;
    $('voice-status').dataset.status = String(c.getStatus());
  };
  game.call.on('statusChanged', show);
  game.call.on('participantChanged', show);
  show();
};
