import type { ReactNode } from 'react';
import { ChevronLeftIcon, ChevronRightIcon, PauseIcon, PlayIcon } from '../../../components/icons.tsx';
import type { ShowAction, ShowAnswer } from '../../../queries/show.ts';

/** The thumb's row, fixed at the bottom of the phone: previous, pause or resume, a big next; stop below. */
export function ShowControls({
  show,
  busy,
  act,
}: {
  show: ShowAnswer;
  busy: boolean;
  act: (action: ShowAction) => void;
}) {
  return (
    <nav
      aria-label="Show controls"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-stone-200 bg-white px-4 pt-3 pb-[max(0.5rem,env(safe-area-inset-bottom))] dark:border-stone-800 dark:bg-stone-950"
    >
      {/* as wide as the page's column (max-w-xl less its px-4), so the buttons line up with the lists */}
      <div className="mx-auto grid max-w-[34rem] grid-cols-[1fr_1fr_2fr] gap-2">
        <BigButton
          label="Previous"
          disabled={busy || show.index === 0}
          onClick={() => act({ action: 'prev', from: show.index })}
        >
          <ChevronLeftIcon className="h-7 w-7" />
        </BigButton>
        {show.state === 'paused' ? (
          <BigButton label="Resume" disabled={busy} onClick={() => act({ action: 'resume' })}>
            <PlayIcon className="h-7 w-7" filled />
          </BigButton>
        ) : (
          <BigButton label="Pause" disabled={busy} onClick={() => act({ action: 'pause' })}>
            <PauseIcon className="h-7 w-7" />
          </BigButton>
        )}
        <BigButton
          label="Next"
          primary
          disabled={busy || show.index >= show.total - 1}
          onClick={() => act({ action: 'next', from: show.index })}
        >
          <span className="text-xl font-bold">Next</span>
          <ChevronRightIcon className="h-7 w-7" />
        </BigButton>
      </div>
      <div className="mx-auto mt-1 flex max-w-[34rem] justify-end">
        <button
          type="button"
          disabled={busy}
          onClick={() => {
            if (window.confirm('Stop the show? Every screen goes back to its own slideshow.')) act({ action: 'stop' });
          }}
          className="min-h-11 rounded-lg px-4 text-sm font-semibold text-rose-700 hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-stone-800"
        >
          Stop the show
        </button>
      </div>
    </nav>
  );
}

function BigButton(props: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  primary?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={props.label}
      disabled={props.disabled}
      onClick={props.onClick}
      className={`flex h-16 items-center justify-center gap-1 rounded-2xl shadow-sm transition active:scale-95 disabled:opacity-40 ${
        props.primary
          ? 'bg-rose-600 text-white'
          : 'border border-stone-300 bg-white text-stone-800 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100'
      }`}
    >
      {props.children}
    </button>
  );
}
