import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import {
  ChevronLeftIcon,
  ChevronRightIcon,
  CloseIcon,
  ExpandIcon,
  PauseIcon,
  PlayIcon,
  ShrinkIcon,
} from '../../../components/icons.tsx';
import { Tooltip } from '../../../components/Tooltip.tsx';

interface RevealControlsProps {
  paused: boolean;
  fullscreen: { active: boolean; supported: boolean; toggle: () => void };
  onPrevious: () => void;
  onNext: () => void;
  onTogglePause: () => void;
  /** false while following someone else's show: only full screen and leaving remain */
  moves?: boolean;
}

const button =
  'inline-flex h-11 w-11 items-center justify-center rounded-full border border-stone-300/70 bg-white/70 text-stone-700 backdrop-blur transition hover:bg-white dark:border-stone-700 dark:bg-stone-900/70 dark:text-stone-200 dark:hover:bg-stone-800';

/** The same moves as the keys, for a mouse or a touch screen. */
export function RevealControls({
  paused,
  fullscreen,
  onPrevious,
  onNext,
  onTogglePause,
  moves = true,
}: RevealControlsProps) {
  return (
    <div role="toolbar" aria-label="Slideshow" className="flex items-center gap-2">
      {moves && (
        <>
          <Control label="Previous slide" onClick={onPrevious}>
            <ChevronLeftIcon className="h-5 w-5" />
          </Control>
          <Control label={paused ? 'Resume slideshow' : 'Pause slideshow'} onClick={onTogglePause}>
            {paused ? <PlayIcon className="h-5 w-5" filled /> : <PauseIcon className="h-5 w-5" />}
          </Control>
          <Control label="Next slide" onClick={onNext}>
            <ChevronRightIcon className="h-5 w-5" />
          </Control>
        </>
      )}
      {fullscreen.supported && (
        <Control label={fullscreen.active ? 'Exit full screen' : 'Full screen'} onClick={fullscreen.toggle}>
          {fullscreen.active ? <ShrinkIcon className="h-5 w-5" /> : <ExpandIcon className="h-5 w-5" />}
        </Control>
      )}
      <Tooltip label="Back to the gallery">
        <Link to="/gallery" aria-label="Back to the gallery" className={button}>
          <CloseIcon className="h-5 w-5" />
        </Link>
      </Tooltip>
    </div>
  );
}

function Control({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <Tooltip label={label}>
      <button type="button" aria-label={label} onClick={onClick} className={button}>
        {children}
      </button>
    </Tooltip>
  );
}
