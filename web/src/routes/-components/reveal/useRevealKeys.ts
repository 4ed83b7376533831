import { useCallback, useEffect, useRef, useState } from 'react';

interface RevealKeys {
  next: () => void;
  previous: () => void;
  togglePause: () => void;
  toggleFullscreen: () => void;
  exit: () => void;
}

/** ArrowRight or Space next, ArrowLeft previous, P pause, F full screen, Escape back to the gallery. */
export function useRevealKeys(keys: RevealKeys): void {
  const latest = useRef(keys);
  useEffect(() => {
    latest.current = keys;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.target instanceof Element && event.target.closest('input, textarea, select, [contenteditable="true"]'))
        return;
      const actions: Record<string, (() => void) | undefined> = {
        ArrowRight: latest.current.next,
        ' ': latest.current.next,
        ArrowLeft: latest.current.previous,
        p: latest.current.togglePause,
        P: latest.current.togglePause,
        f: latest.current.toggleFullscreen,
        F: latest.current.toggleFullscreen,
        Escape: latest.current.exit,
      };
      const action = actions[event.key];
      if (!action) return;
      // Also keeps Space from pressing a focused button, and the arrows from seeking a focused video.
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function useFullscreen(): { active: boolean; supported: boolean; toggle: () => void } {
  const [active, setActive] = useState(() => document.fullscreenElement !== null);
  useEffect(() => {
    const update = () => setActive(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', update);
    return () => document.removeEventListener('fullscreenchange', update);
  }, []);
  const toggle = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else if (document.fullscreenEnabled) void document.documentElement.requestFullscreen().catch(() => {});
  }, []);
  return { active, supported: document.fullscreenEnabled, toggle };
}
