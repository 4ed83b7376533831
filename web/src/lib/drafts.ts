import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Text being typed, kept on this device until it is sent or cleared (issue 27, decision 099): a long
 * story survives a reload, a lost connection and an expired session. Only the words: names and
 * emails are never kept, since a shared phone's next guest would find them. A logout clears them all.
 */
const PREFIX = 'tg:draft:';
const WRITE_AFTER_MS = 300;

function read(key: string): string {
  try {
    return localStorage.getItem(PREFIX + key) ?? '';
  } catch {
    return '';
  }
}

function write(key: string, value: string) {
  try {
    if (value) localStorage.setItem(PREFIX + key, value);
    else localStorage.removeItem(PREFIX + key);
  } catch {
    // storage full or refused (a private window): the text stays on screen, just not kept
  }
}

/** A text field's value that is also kept on the device under `key`; setting '' forgets it. */
export function useDraft(key: string, initial = ''): [string, (value: string) => void] {
  const [value, setValue] = useState(() => read(key) || initial);
  const latest = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    write(key, latest.current);
  }, [key]);
  const set = useCallback(
    (next: string) => {
      latest.current = next;
      setValue(next);
      clearTimeout(timer.current);
      // emptied (sent or cleared): forgotten at once, not after the pause
      if (!next) write(key, '');
      else timer.current = setTimeout(flush, WRITE_AFTER_MS);
    },
    [key, flush],
  );
  // what was typed in the last moment before the page goes away is kept too
  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      if (latest.current) flush();
    };
  }, [flush]);
  return [value, set];
}

/** Forgets every draft on this device (a logout: the next person on a shared phone starts clean). */
export function clearDrafts(): void {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
  } catch {
    // nothing kept
  }
}
