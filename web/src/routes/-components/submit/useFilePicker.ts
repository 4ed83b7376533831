import { useRef, useState, type ChangeEvent, type DragEvent } from 'react';

interface FilePickerOptions {
  /** The input's accept list. */
  accept: string;
  /** The input's name for assistive technology (it is visually hidden; the box and its button browse). */
  label: string;
  onFile: (file: File) => void;
  /** While true, a dropped file is ignored. */
  disabled?: boolean;
}

/**
 * What both upload boxes share: a hidden file input, browse() to open it, and a drop zone that knows
 * when a file is dragged over it. Spread `input` on an <input> and `dropZone` on the box.
 */
export function useFilePicker({ accept, label, onFile, disabled = false }: FilePickerOptions) {
  const ref = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  return {
    dragging,
    browse: () => ref.current?.click(),
    input: {
      ref,
      type: 'file',
      accept,
      'aria-label': label,
      className: 'sr-only',
      tabIndex: -1,
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        const file = event.target.files?.[0];
        if (file) onFile(file);
        // the same file chosen again is a change too
        event.target.value = '';
      },
    },
    dropZone: {
      onDragOver: (event: DragEvent<HTMLElement>) => {
        event.preventDefault();
        setDragging(true);
      },
      onDragLeave: () => setDragging(false),
      onDrop: (event: DragEvent<HTMLElement>) => {
        event.preventDefault();
        setDragging(false);
        const file = event.dataTransfer.files[0];
        if (file && !disabled) onFile(file);
      },
    },
  };
}
