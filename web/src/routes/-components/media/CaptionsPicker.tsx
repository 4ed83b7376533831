import { useId, useState } from 'react';
import { captionsProblem } from '../../../queries/media.ts';

export interface ChosenCaptions {
  name: string;
  text: string;
}

interface CaptionsPickerProps {
  /** the file chosen so far (the form keeps it), or null */
  chosen: ChosenCaptions | null;
  onChange: (captions: ChosenCaptions | null) => void;
  disabled?: boolean;
  /** what the track is for: a video's captions, an audio message's transcript (decision 130), or not known yet */
  mediaType?: 'video' | 'audio';
}

const WORDING = {
  video: { label: 'Captions', optional: '(optional)', hint: 'shown under the video for anyone who cannot hear it.' },
  audio: {
    label: 'Transcript',
    optional: '(optional)',
    hint: 'shown as text under the recording for anyone who cannot hear it.',
  },
  either: {
    label: 'Captions',
    optional: '(optional; a transcript for audio)',
    hint: 'shown with the video, or as text under a recording, for anyone who cannot hear it.',
  },
};

/**
 * A message's WebVTT track (decisions 123, 130): a video's captions or an audio message's transcript,
 * read and checked on the device, so a wrong file is named before anything is sent.
 */
export function CaptionsPicker({ chosen, onChange, disabled, mediaType }: CaptionsPickerProps) {
  const id = useId();
  const wording = WORDING[mediaType ?? 'either'];
  const [problem, setProblem] = useState<string | null>(null);

  async function pick(file: File | undefined) {
    if (!file) return;
    const text = await file.text();
    const wrong = captionsProblem(text, file.size);
    setProblem(wrong);
    onChange(wrong ? null : { name: file.name, text });
  }

  return (
    <div>
      <div className="mb-1.5 flex items-baseline gap-2">
        <label htmlFor={id} className="text-sm font-medium text-stone-700 dark:text-stone-300">
          {wording.label}
        </label>
        <span className="text-xs text-stone-500 dark:text-stone-400">{wording.optional}</span>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <input
          id={id}
          type="file"
          accept=".vtt,text/vtt"
          disabled={disabled}
          aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => {
            void pick(event.target.files?.[0]);
            event.target.value = '';
          }}
          className="block text-sm text-stone-700 file:mr-3 file:rounded-lg file:border-0 file:bg-amber-100 file:px-3 file:py-2 file:font-medium file:text-amber-900 hover:file:bg-amber-200 dark:text-stone-300 dark:file:bg-stone-700 dark:file:text-amber-50"
        />
        {chosen && (
          <span className="flex items-center gap-2 text-sm text-stone-700 dark:text-stone-300">
            {chosen.name}
            <button type="button" className="text-rose-700 underline dark:text-rose-300" onClick={() => onChange(null)}>
              Remove
            </button>
          </span>
        )}
      </div>
      <p id={`${id}-hint`} className="mt-1.5 text-xs text-stone-500 dark:text-stone-400">
        A WebVTT file (.vtt) of what is said, {wording.hint}
      </p>
      {problem && (
        <p id={`${id}-error`} role="alert" className="mt-1.5 text-sm font-medium text-rose-600 dark:text-rose-400">
          {problem}
        </p>
      )}
    </div>
  );
}
