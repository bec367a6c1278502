import { useEffect, useState } from 'react';
import { voiceManager } from './useVoice.js';
import { useSession } from '../lib/session.js';
import { codeChunks } from './state.js';

/** The pairwise verification code with one member, to compare with them out of band (it changes with each epoch). */
export function VerifyCode({ userId, epoch }: { userId: string; epoch: string | null }) {
  const voice = voiceManager(useSession());
  const [code, setCode] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    voice.verificationCode(userId).then(
      (c) => live && setCode(c),
      () => live && setCode(null),
    );
    return () => {
      live = false;
    };
  }, [userId, epoch]);
  if (!code) return null;
  return (
    <div className="voicegrid__verify" title="Verification code: compare it with this person" data-verification={code}>
      {codeChunks(code).join(' ')}
    </div>
  );
}
