import { useId, type ReactNode } from 'react';
import {
  DESKTOP_PALETTE_SIZE,
  MOBILE_PALETTE_SIZE,
  OPACITY,
  PALETTE,
  SIZE,
  type DrawingStyle,
} from '../../../drawing/tools.ts';

interface StyleControlsProps {
  style: DrawingStyle;
  onChange: (style: DrawingStyle) => void;
  mobile: boolean;
}

/** Size, opacity, colours and the palette. Mobile has no shapes, so no fill. */
export function StyleControls({ style, onChange, mobile }: StyleControlsProps) {
  const set = (change: Partial<DrawingStyle>) => onChange({ ...style, ...change });
  const palette = PALETTE.slice(0, mobile ? MOBILE_PALETTE_SIZE : DESKTOP_PALETTE_SIZE);

  return (
    <div className="space-y-4">
      <div className={`grid gap-x-6 gap-y-4 ${mobile ? 'grid-cols-1' : 'sm:grid-cols-2 xl:grid-cols-4'}`}>
        <Slider
          label="Size"
          value={style.size}
          range={SIZE}
          shown={`${style.size} px`}
          onChange={(size) => set({ size })}
        />
        <Slider
          label="Opacity"
          value={style.opacity}
          range={OPACITY}
          shown={`${style.opacity}%`}
          onChange={(opacity) => set({ opacity })}
        />
        <Colour label="Outline colour" value={style.stroke} onChange={(stroke) => set({ stroke })} />
        {!mobile && (
          // Picking a fill colour turns filling on; the box turns it off again.
          <Colour
            label="Fill colour"
            value={style.fill}
            faded={!style.filled}
            onChange={(fill) => set({ fill, filled: true })}
          >
            <label className="flex cursor-pointer items-center gap-1.5 text-xs text-stone-600 dark:text-stone-300">
              <input
                type="checkbox"
                checked={style.filled}
                onChange={(event) => set({ filled: event.target.checked })}
                className="h-4 w-4 accent-rose-500"
              />
              Fill shapes
            </label>
          </Colour>
        )}
      </div>

      <div role="group" aria-label="Palette" className={mobile ? 'grid grid-cols-10 gap-1.5' : 'flex flex-wrap gap-2'}>
        {palette.map(({ name, hex }) => {
          const chosen = style.stroke.toLowerCase() === hex;
          return (
            <button
              key={hex}
              type="button"
              aria-label={name}
              title={name}
              aria-pressed={chosen}
              onClick={() => set({ stroke: hex })}
              style={{ backgroundColor: hex }}
              className={`aspect-square rounded-full border border-black/10 shadow-sm transition hover:scale-110 ${mobile ? 'w-full' : 'w-8'} ${
                chosen ? 'ring-2 ring-amber-500 ring-offset-2 dark:ring-offset-stone-900' : ''
              }`}
            />
          );
        })}
      </div>
    </div>
  );
}

interface SliderProps {
  label: string;
  value: number;
  range: { min: number; max: number; step: number };
  shown: string;
  onChange: (value: number) => void;
}

function Slider({ label, value, range, shown, onChange }: SliderProps) {
  const id = useId();
  return (
    <div>
      <div className="mb-1.5 flex items-baseline justify-between">
        <label htmlFor={id} className="text-sm font-medium text-stone-700 dark:text-stone-300">
          {label}
        </label>
        <span aria-hidden="true" className="text-xs font-semibold text-stone-500 tabular-nums dark:text-stone-400">
          {shown}
        </span>
      </div>
      <input
        id={id}
        type="range"
        min={range.min}
        max={range.max}
        step={range.step}
        value={value}
        aria-valuetext={shown}
        onChange={(event) => onChange(Number(event.target.value))}
        className="w-full cursor-pointer accent-rose-500"
      />
    </div>
  );
}

interface ColourProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  faded?: boolean;
  children?: ReactNode;
}

function Colour({ label, value, onChange, faded, children }: ColourProps) {
  const id = useId();
  return (
    <div>
      <div className="mb-1.5 flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-stone-700 dark:text-stone-300">
          {label}
        </label>
        {children}
      </div>
      <input
        id={id}
        type="color"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={`h-9 w-full cursor-pointer rounded-lg border border-amber-200 bg-white p-1 dark:border-stone-700 dark:bg-stone-900 ${faded ? 'opacity-40' : ''}`}
      />
    </div>
  );
}
