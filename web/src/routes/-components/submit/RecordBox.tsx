import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { FilmIcon, MusicIcon } from '../../../components/icons.tsx';
import { MAX_RECORDING_SECONDS, useRecorder, type RecorderState } from './useRecorder.ts';

interface RecordBoxProps {
  /** The recording (or a phone camera's file), handed over as if it had been chosen. */
  onFile: (file: File) => void;
  disabled?: boolean;
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** Record here (CONTRACT §12): camera and microphone, or the microphone alone, then preview or retake. */
export function RecordBox({ onFile, disabled = false }: RecordBoxProps) {
  const { state, open, start, stop, close, retake } = useRecorder();
  const phoneCamera = useRef<HTMLInputElement>(null);
  const coarse = typeof window !== 'undefined' && window.matchMedia?.('(pointer: coarse)').matches;

  function use() {
    if (state.step !== 'recorded') return;
    onFile(state.file);
    close();
  }

  function fromPhoneCamera(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) onFile(file);
    event.target.value = '';
  }

  return (
    <section aria-labelledby="record-heading" className="card p-5 sm:p-6">
      <h2 id="record-heading" className="text-lg font-semibold text-stone-800 dark:text-stone-100">
        Record a message here
      </h2>
      {state.step === 'off' && (
        <>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Up to 3 minutes. You can watch it back and try again before sending.
          </p>
          <div className="mt-4 flex flex-wrap gap-2">
            <button
              type="button"
              disabled={disabled}
              onClick={() => void open('video')}
              className="btn-primary text-sm"
            >
              <FilmIcon className="h-4 w-4" /> Record video
            </button>
            <button
              type="button"
              disabled={disabled}
              onClick={() => void open('audio')}
              className="btn-secondary text-sm"
            >
              <MusicIcon className="h-4 w-4" /> Record audio only
            </button>
            {coarse && (
              <>
                <input
                  ref={phoneCamera}
                  type="file"
                  accept="video/*"
                  capture="user"
                  aria-label="Video from the phone camera"
                  className="sr-only"
                  tabIndex={-1}
                  onChange={fromPhoneCamera}
                />
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => phoneCamera.current?.click()}
                  className="btn-secondary text-sm"
                >
                  Open the camera app
                </button>
              </>
            )}
          </div>
        </>
      )}
      {state.step !== 'off' && <Stage state={state} onStart={start} onStop={stop} />}
      {state.step === 'unavailable' && (
        <div className="mt-4 flex flex-wrap gap-2">
          <button type="button" onClick={() => void retake()} className="btn-secondary text-sm">
            Try again
          </button>
          <button type="button" onClick={close} className="btn-secondary text-sm">
            Choose a file instead
          </button>
        </div>
      )}
      {state.step === 'recorded' && (
        <div className="mt-4 flex flex-wrap gap-2">
          <button type="button" onClick={use} className="btn-primary text-sm">
            Use this recording
          </button>
          <button type="button" onClick={() => void retake()} className="btn-secondary text-sm">
            Retake
          </button>
          <button type="button" onClick={close} className="btn-secondary text-sm">
            Cancel
          </button>
        </div>
      )}
    </section>
  );
}

function Stage({ state, onStart, onStop }: { state: RecorderState; onStart: () => void; onStop: () => void }) {
  switch (state.step) {
    case 'off':
      return null;
    case 'asking':
      return (
        <p role="status" className="mt-3 text-sm text-stone-600 dark:text-stone-400">
          Waiting for permission to use the {state.kind === 'video' ? 'camera and microphone' : 'microphone'}...
        </p>
      );
    case 'unavailable':
      return (
        <p role="alert" className="mt-3 text-sm font-semibold text-rose-700 dark:text-rose-400">
          {state.reason}
        </p>
      );
    case 'recorded':
      return state.kind === 'video' ? (
        <RecordedVideo url={state.url} />
      ) : (
        <div className="mt-4 overflow-hidden rounded-xl bg-stone-900">
          {/* oxlint-disable-next-line jsx-a11y/media-has-caption -- the guest's own recording, heard back before sending */}
          <audio src={state.url} controls aria-label="Your recording" className="w-full" />
        </div>
      );
    default:
      return <Live state={state} onStart={onStart} onStop={onStop} />;
  }
}

/**
 * A browser that cannot encode the picture fast enough writes a file with the sound alone; the guest
 * hears of it here, before sending, instead of finding an audio message in the gallery.
 */
function RecordedVideo({ url }: { url: string }) {
  const [noPicture, setNoPicture] = useState(false);
  return (
    <>
      <div className="mt-4 overflow-hidden rounded-xl bg-stone-900">
        {/* oxlint-disable-next-line jsx-a11y/media-has-caption -- the guest's own recording, seen back before sending */}
        <video
          src={`${url}#t=0.1`}
          controls
          playsInline
          aria-label="Your recording"
          className="max-h-96 w-full"
          onLoadedMetadata={(event) => setNoPicture(event.currentTarget.videoWidth === 0)}
        />
      </div>
      {noPicture && (
        <p role="alert" className="mt-3 text-sm font-semibold text-rose-700 dark:text-rose-400">
          Only the sound was recorded, not the picture. Retake it, or choose a file below.
        </p>
      )}
    </>
  );
}

type LiveState = Extract<RecorderState, { stream: MediaStream }>;

function Live({ state, onStart, onStop }: { state: LiveState; onStart: () => void; onStop: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current && video.current.srcObject !== state.stream) video.current.srcObject = state.stream;
  }, [state.stream]);
  return (
    <div className="mt-4">
      <div className="relative flex min-h-32 items-center justify-center overflow-hidden rounded-xl bg-stone-900">
        {state.kind === 'video' ? (
          <video ref={video} autoPlay muted playsInline aria-label="Camera" className="max-h-96 w-full -scale-x-100" />
        ) : (
          <MusicIcon className="h-12 w-12 text-stone-400" />
        )}
        {state.step === 'countdown' && (
          <span
            role="timer"
            aria-label={`Recording starts in ${state.count}`}
            className="absolute inset-0 flex items-center justify-center bg-black/40 text-7xl font-bold text-white"
          >
            {state.count}
          </span>
        )}
        {state.step === 'recording' && (
          <span
            role="timer"
            aria-label="Recording time"
            className="absolute top-3 left-3 rounded-full bg-rose-600 px-3 py-1 text-sm font-semibold text-white tabular-nums"
          >
            ● {clock(state.seconds)} / {clock(MAX_RECORDING_SECONDS)}
          </span>
        )}
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        {state.step === 'ready' && (
          <button type="button" onClick={onStart} className="btn-primary text-sm">
            Start recording
          </button>
        )}
        {state.step === 'recording' && (
          <button type="button" onClick={onStop} className="btn-primary text-sm">
            Stop
          </button>
        )}
      </div>
    </div>
  );
}
