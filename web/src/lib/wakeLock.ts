import { useEffect, useState } from 'react';

/** Whether the screen is kept awake: held, not offered by this browser, or refused (battery saver, hidden tab). */
export type WakeLockState = 'held' | 'unavailable' | 'refused';

/**
 * Keeps the screen from sleeping while the component is shown (the big screen, the presenter's phone):
 * the Screen Wake Lock API, asked again whenever the page comes back into view, since the browser
 * lets go of it when the page is hidden.
 */
export function useWakeLock(): WakeLockState {
  const [state, setState] = useState<WakeLockState>(() => ('wakeLock' in navigator ? 'refused' : 'unavailable'));
  useEffect(() => {
    if (!('wakeLock' in navigator)) return;
    let sentinel: WakeLockSentinel | undefined;
    let gone = false;
    const request = async () => {
      if (document.visibilityState !== 'visible' || (sentinel && !sentinel.released)) return;
      try {
        const held = await navigator.wakeLock.request('screen');
        if (gone) return void held.release();
        sentinel = held;
        setState('held');
        held.addEventListener('release', () => {
          if (!gone) setState('refused');
        });
      } catch {
        setState('refused');
      }
    };
    const onVisible = () => void request();
    void request();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      gone = true;
      document.removeEventListener('visibilitychange', onVisible);
      void sentinel?.release();
    };
  }, []);
  return state;
}
