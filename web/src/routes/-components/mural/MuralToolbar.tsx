import { OPACITY, PALETTE, SIZE } from '../../../drawing/tools.ts';
import type { Pen } from '../../../mural/useMuralDrawing.ts';

/** Brush or eraser, undo of one's own strokes, size, opacity and the palette. */
export function MuralToolbar({
  pen,
  setPen,
  canUndo,
  onUndo,
  hidden,
}: {
  pen: Pen;
  setPen: (change: Partial<Pen>) => void;
  canUndo: boolean;
  onUndo: () => void;
  hidden: boolean;
}) {
  const { tool, color, size, opacity } = pen;
  return (
    <div
      className={`mt-3 flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between ${hidden ? 'hidden' : ''}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <div
          role="group"
          aria-label="Tool"
          className="flex overflow-hidden rounded-lg border border-stone-300 dark:border-stone-600"
        >
          {(['brush', 'eraser'] as const).map((t) => (
            <button
              key={t}
              type="button"
              aria-pressed={tool === t}
              onClick={() => setPen({ tool: t })}
              className={`px-3 py-2 text-sm font-medium ${
                tool === t
                  ? 'bg-rose-700 text-white'
                  : 'bg-white text-stone-700 hover:bg-stone-100 dark:bg-stone-800 dark:text-stone-200 dark:hover:bg-stone-700'
              }`}
            >
              {t === 'brush' ? 'Brush' : 'Eraser'}
            </button>
          ))}
        </div>
        <button
          type="button"
          onClick={onUndo}
          disabled={!canUndo}
          className="rounded-lg border border-stone-300 bg-white px-3 py-2 text-sm font-medium text-stone-700 hover:bg-stone-100 disabled:opacity-40 dark:border-stone-600 dark:bg-stone-800 dark:text-stone-200 dark:hover:bg-stone-700"
        >
          Undo
        </button>
        <Slider
          label="Size"
          range={SIZE}
          value={size}
          onChange={(v) => setPen({ size: v })}
          unit=" px"
          className="w-24"
        />
        <Slider
          label="Opacity"
          range={OPACITY}
          value={opacity}
          onChange={(v) => setPen({ opacity: v })}
          unit="%"
          disabled={tool === 'eraser'}
          className="w-20"
        />
      </div>
      <div role="group" aria-label="Palette" className="grid grid-cols-12 gap-1.5 sm:flex sm:flex-wrap">
        {PALETTE.map(({ name, hex }) => (
          <button
            key={hex}
            type="button"
            aria-label={name}
            title={name}
            aria-pressed={color === hex}
            onClick={() => setPen({ color: hex, tool: 'brush' })}
            style={{ backgroundColor: hex }}
            className={`aspect-square w-full rounded-full border border-black/10 shadow-sm sm:h-7 sm:w-7 dark:border-white/40 ${
              color === hex ? 'ring-2 ring-amber-500 ring-offset-2 dark:ring-offset-stone-900' : ''
            }`}
          />
        ))}
      </div>
    </div>
  );
}

interface SliderProps {
  label: string;
  range: { min: number; max: number; step: number };
  value: number;
  onChange: (value: number) => void;
  unit: string;
  disabled?: boolean;
  className: string;
}

/** A toolbar slider: its label, the range, and the value with its unit. */
function Slider({ label, range, value, onChange, unit, disabled, className }: SliderProps) {
  return (
    <label className="flex items-center gap-2 text-sm text-stone-700 dark:text-stone-300">
      {label}
      <input
        type="range"
        min={range.min}
        max={range.max}
        step={range.step}
        value={value}
        disabled={disabled}
        aria-valuetext={`${value}${unit}`}
        onChange={(e) => onChange(Number(e.target.value))}
        className={`${className} accent-rose-500`}
      />
      <span className="w-10 text-xs tabular-nums">
        {value}
        {unit}
      </span>
    </label>
  );
}
