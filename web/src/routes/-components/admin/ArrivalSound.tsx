import { useEffect, useRef, useState } from 'react';

const KEY = 'tg:admin-sound';

let context: AudioContext | undefined;

/** Two soft sine notes, a fifth apart, fading out in half a second: made here, no sound file. */
function chime() {
  context ??= new AudioContext();
  const audio = context;
  void audio.resume();
  const now = audio.currentTime;
  [659.25, 987.77].forEach((frequency, i) => {
    const start = now + i * 0.12;
    const note = audio.createOscillator();
    const level = audio.createGain();
    note.frequency.value = frequency;
    level.gain.setValueAtTime(0.0001, start);
    level.gain.exponentialRampToValueAtTime(0.06, start + 0.02);
    level.gain.exponentialRampToValueAtTime(0.0001, start + 0.5);
    note.connect(level).connect(audio.destination);
    note.start(start);
    note.stop(start + 0.55);
  });
}

function wanted(): boolean {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

/**
 * A soft chime when something new waits for review; off until the admin turns it on, and remembered
 * on this device (decision 110). The browser lets a page make sound only after a click or a key, so
 * turning it on (or any key or click later) wakes the sound up.
 */
export function ArrivalSound({ waiting }: { waiting: number | undefined }) {
  const [on, setOn] = useState(wanted);
  const seen = useRef(waiting);

  useEffect(() => {
    const before = seen.current;
    seen.current = waiting;
    if (on && before !== undefined && waiting !== undefined && waiting > before) chime();
  }, [waiting, on]);

  useEffect(() => {
    if (!on) return;
    const wake = () => void context?.resume();
    window.addEventListener('pointerdown', wake);
    window.addEventListener('keydown', wake);
    return () => {
      window.removeEventListener('pointerdown', wake);
      window.removeEventListener('keydown', wake);
    };
  }, [on]);

  const toggle = () => {
    const next = !on;
    setOn(next);
    try {
      localStorage.setItem(KEY, next ? 'on' : 'off');
    } catch {
      // not remembered: on for this visit only
    }
    if (next) chime();
  };

  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={toggle}
      className="text-sm text-stone-600 underline decoration-dotted underline-offset-4 hover:text-stone-900 dark:text-stone-400 dark:hover:text-amber-50"
    >
      Sound on arrival: {on ? 'on' : 'off'}
    </button>
  );
}
