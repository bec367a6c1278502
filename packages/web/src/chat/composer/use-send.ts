import { useCallback, useState } from 'react';
import type { Snowflake } from '../../lib/api/types.js';
import { sendMessage } from '../../lib/state/actions.js';
import { dropLocal } from '../../lib/state/message-events.js';
import { useSession } from '../../lib/session.js';

/** The platform's limit on a message's content. */
export const MAX_LENGTH = 2000;

export interface Draft {
  text: string;
  files: File[];
  replyTo: string | null;
}

/** What the composer shows above the box: a refused length, or a failed send with a retry. */
export interface SendAlert {
  message: string;
  retry: boolean;
  tooLong?: boolean;
}

/**
 * Sending from the composer: a message over the limit is refused here and the text stays; a send the server
 * refuses puts the text back (`restore`) and offers a retry instead of leaving it only in a failed echo.
 */
export function useSendWithRetry(channelId: Snowflake) {
  const { api, store } = useSession();
  const [alert, setAlert] = useState<SendAlert | null>(null);
  /** The reply a failed send was for, so a retry keeps it. */
  const [failedReply, setFailedReply] = useState<string | null>(null);

  const send = async (draft: Draft, sent: () => void, restore: (d: Draft) => void) => {
    const content = draft.text.trim();
    if (!content && !draft.files.length) return;
    if (content.length > MAX_LENGTH) {
      setAlert({
        message: `Your message is ${content.length} characters long, over the limit of ${MAX_LENGTH}. Shorten it to send.`,
        retry: false,
        tooLong: true,
      });
      return;
    }
    const replyTo = draft.replyTo ?? failedReply;
    setAlert(null);
    setFailedReply(null);
    sent();
    if (await sendMessage(api, store, channelId, { content, files: draft.files, replyTo })) return;
    // The failed echo would be the only copy of the text: drop it and put the text back in the box.
    const failed = (store.state.local.get(channelId) ?? []).filter((l) => l.kind === 'message' && l.state === 'failed' && l.content === content).pop();
    if (failed) dropLocal(store, channelId, failed.nonce);
    restore(draft);
    setFailedReply(replyTo);
    setAlert({ message: `Your message could not be sent: ${(failed?.error ?? 'the server refused it').replace(/\.$/, '')}.`, retry: true });
  };

  const dismiss = useCallback(() => {
    setAlert(null);
    setFailedReply(null);
  }, []);
  const clearTooLong = useCallback(() => setAlert((a) => (a?.tooLong ? null : a)), []);
  return { alert, send, dismiss, clearTooLong };
}
