import { useFilePicker } from './useFilePicker.ts';
import { CloseIcon, UploadIcon } from '../../../components/icons.tsx';
import { Spinner } from '../../../components/Spinner.tsx';

interface UploadAreaProps {
  preview: string | null;
  fileName: string | null;
  processing: boolean;
  onFile: (file: File) => void;
  onRemove: () => void;
}

export function UploadArea({ preview, fileName, processing, onFile, onRemove }: UploadAreaProps) {
  const { browse, dragging, input, dropZone } = useFilePicker({
    accept: 'image/jpeg,image/png,image/gif,image/*',
    label: 'Artwork image',
    onFile,
  });

  return (
    <div>
      <input {...input} />
      {preview ? (
        <div className="card overflow-hidden">
          <div className="flex justify-center bg-stone-100 dark:bg-stone-950">
            <img src={preview} alt="Preview of your artwork" className="max-h-96 w-auto max-w-full object-contain" />
          </div>
          <div className="flex flex-wrap items-center justify-between gap-3 p-4">
            <p className="min-w-0 truncate text-sm font-medium text-stone-700 dark:text-stone-300">{fileName}</p>
            <div className="flex gap-2">
              <button type="button" onClick={browse} className="btn-secondary px-4 py-1.5 text-sm">
                Browse Files
              </button>
              <button type="button" onClick={onRemove} className="btn-secondary px-4 py-1.5 text-sm">
                <CloseIcon className="h-4 w-4" /> Remove
              </button>
            </div>
          </div>
        </div>
      ) : (
        // Clicking anywhere in the drop zone browses too; the button is the keyboard path.
        <div
          role="presentation"
          onClick={browse}
          {...dropZone}
          className={`flex cursor-pointer flex-col items-center justify-center rounded-2xl border-2 border-dashed px-6 py-14 text-center transition ${
            dragging
              ? 'border-rose-400 bg-rose-50 dark:bg-rose-950/30'
              : 'border-amber-300 bg-white/60 hover:border-amber-400 hover:bg-amber-50 dark:border-stone-700 dark:bg-stone-900/60 dark:hover:bg-stone-900'
          }`}
        >
          {processing ? (
            <Spinner className="h-10 w-10 text-amber-500" />
          ) : (
            <span className="flex h-14 w-14 items-center justify-center rounded-full bg-gradient-to-br from-amber-400 to-rose-500 text-white shadow-md">
              <UploadIcon className="h-6 w-6" />
            </span>
          )}
          <p className="mt-4 text-lg font-semibold text-stone-800 dark:text-stone-100">
            {processing ? 'Preparing your image...' : 'Click to upload or drag and drop'}
          </p>
          <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">JPG, PNG, GIF, max 20MB</p>
          <button
            type="button"
            disabled={processing}
            onClick={(event) => {
              event.stopPropagation();
              browse();
            }}
            className="btn-secondary mt-5 text-sm"
          >
            Browse Files
          </button>
        </div>
      )}
    </div>
  );
}
