import { useFilePicker } from './useFilePicker.ts';
import { formatBytes } from '../../../lib/format.ts';
import { CloseIcon, FilmIcon, MusicIcon, UploadIcon } from '../../../components/icons.tsx';

/** Spec §4 Media upload: idle, then uploading (percentage shown), then success or error. */
export type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; file: File; percent: number; resuming?: boolean }
  | { status: 'success'; file: File }
  | { status: 'error'; file: File; message: string };

interface MediaUploadBoxProps {
  state: UploadState;
  onFile: (file: File) => void;
  onRetry: () => void;
  onRemove: () => void;
}

export function MediaUploadBox({ state, onFile, onRetry, onRemove }: MediaUploadBoxProps) {
  const busy = state.status === 'uploading';
  const { browse, dragging, input, dropZone } = useFilePicker({
    accept: 'video/*,audio/*,.mp4,.mov,.avi,.webm,.mp3,.wav,.m4a',
    label: 'Video or audio file',
    onFile,
    disabled: busy,
  });

  return (
    <div>
      <input {...input} />
      {/* Clicking anywhere in the box browses too; the button is the keyboard path. */}
      <div
        role="presentation"
        onClick={busy ? undefined : browse}
        {...dropZone}
        className={`flex flex-col items-center justify-center rounded-2xl border-2 border-dashed px-6 py-12 text-center transition ${
          busy ? 'cursor-progress' : 'cursor-pointer'
        } ${
          dragging
            ? 'border-rose-400 bg-rose-50 dark:bg-rose-950/30'
            : state.status === 'error'
              ? 'border-rose-300 bg-rose-50/60 dark:border-rose-900 dark:bg-rose-950/20'
              : state.status === 'success'
                ? 'border-emerald-300 bg-emerald-50/60 dark:border-emerald-900 dark:bg-emerald-950/20'
                : 'border-amber-300 bg-white/60 hover:border-amber-400 hover:bg-amber-50 dark:border-stone-700 dark:bg-stone-900/60 dark:hover:bg-stone-900'
        }`}
      >
        {state.status === 'idle' ? (
          <Idle onBrowse={browse} />
        ) : (
          <Chosen state={state} onBrowse={browse} onRetry={onRetry} onRemove={onRemove} />
        )}
      </div>
    </div>
  );
}

function Idle({ onBrowse }: { onBrowse: () => void }) {
  return (
    <>
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-gradient-to-br from-sky-400 to-indigo-500 text-white shadow-md">
        <UploadIcon className="h-6 w-6" />
      </span>
      <p className="mt-4 text-lg font-semibold text-stone-800 dark:text-stone-100">Click to upload or drag and drop</p>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">MP4, MOV, AVI, WEBM, MP3, WAV, M4A</p>
      <p className="text-xs text-stone-500 dark:text-stone-400">Up to 512MB</p>
      <button type="button" onClick={stop(onBrowse)} className="btn-secondary mt-5 text-sm">
        Browse Files
      </button>
    </>
  );
}

interface ChosenProps {
  state: Exclude<UploadState, { status: 'idle' }>;
  onBrowse: () => void;
  onRetry: () => void;
  onRemove: () => void;
}

function Chosen({ state, onBrowse, onRetry, onRemove }: ChosenProps) {
  const { file } = state;
  const Icon = file.type.startsWith('audio/') ? MusicIcon : FilmIcon;
  return (
    <div className="w-full max-w-md">
      <div className="flex items-center gap-3 text-left">
        <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-stone-800 text-white dark:bg-stone-700">
          <Icon className="h-5 w-5" />
        </span>
        <div className="min-w-0">
          <p className="truncate font-semibold text-stone-800 dark:text-stone-100">{file.name}</p>
          <p className="text-sm text-stone-500 dark:text-stone-400">{formatBytes(file.size)}</p>
        </div>
      </div>

      {state.status === 'uploading' && (
        <div className="mt-5">
          <div className="flex justify-between text-sm font-medium text-stone-700 dark:text-stone-300">
            <span>{state.resuming ? 'Connection lost. Resuming…' : 'Uploading...'}</span>
            <span>{state.percent}%</span>
          </div>
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={state.percent}
            aria-valuetext={`${state.percent}%`}
            className="mt-2 h-2.5 overflow-hidden rounded-full bg-amber-100 dark:bg-stone-800"
          >
            <div
              className="h-full rounded-full bg-gradient-to-r from-amber-500 to-rose-500 transition-[width]"
              style={{ width: `${state.percent}%` }}
            />
          </div>
        </div>
      )}
      {state.status === 'success' && (
        <p role="status" className="mt-4 text-sm font-semibold text-emerald-700 dark:text-emerald-400">
          Uploaded. Add your details below and submit.
        </p>
      )}
      {state.status === 'error' && (
        <p role="alert" className="mt-4 text-sm font-semibold text-rose-700 dark:text-rose-400">
          {state.message}
        </p>
      )}

      {state.status !== 'uploading' && (
        <div className="mt-5 flex flex-wrap justify-center gap-2">
          {state.status === 'error' && (
            <button type="button" onClick={stop(onRetry)} className="btn-primary px-4 py-1.5 text-sm">
              Try Again
            </button>
          )}
          <button type="button" onClick={stop(onBrowse)} className="btn-secondary px-4 py-1.5 text-sm">
            Choose Another File
          </button>
          <button type="button" onClick={stop(onRemove)} className="btn-secondary px-4 py-1.5 text-sm">
            <CloseIcon className="h-4 w-4" /> Remove
          </button>
        </div>
      )}
    </div>
  );
}

/** Buttons inside the box must not also trigger the box's own click. */
function stop(action: () => void) {
  return (event: { stopPropagation: () => void }) => {
    event.stopPropagation();
    action();
  };
}
