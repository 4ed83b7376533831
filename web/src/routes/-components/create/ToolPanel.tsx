import { useId, useState, type ReactNode } from 'react';
import { DESKTOP_TOOLS, MOBILE_TOOLS, type DrawingStyle, type Tool } from '../../../drawing/tools.ts';
import type { SurfaceState } from '../../../drawing/fabricCanvas.ts';
import { StyleControls } from './StyleControls.tsx';
import { ChevronIcon, ClearIcon, DownloadIcon, RedoIcon, ToolIcon, UndoIcon } from './toolIcons.tsx';

const DESKTOP_NAMES: Record<Tool, string> = {
  brush: 'Brush',
  spray: 'Spray',
  eraser: 'Eraser',
  line: 'Line',
  arrow: 'Arrow',
  rectangle: 'Rectangle',
  circle: 'Circle',
  triangle: 'Triangle',
  star: 'Star',
};
const MOBILE_NAMES: Partial<Record<Tool, string>> = { brush: 'Draw', eraser: 'Erase' };

interface ToolPanelProps {
  mobile: boolean;
  tool: Tool;
  onTool: (tool: Tool) => void;
  style: DrawingStyle;
  onStyle: (style: DrawingStyle) => void;
  surface: SurfaceState;
  onUndo: () => void;
  onRedo: () => void;
  onClear: () => void;
  onDownload: () => void;
}

/** The collapsible panel above the canvas: tools, style and the history and export actions. */
export function ToolPanel({ mobile, tool, onTool, style, onStyle, surface, ...actions }: ToolPanelProps) {
  const [open, setOpen] = useState(true);
  const bodyId = useId();
  const tools = mobile ? MOBILE_TOOLS : DESKTOP_TOOLS;
  const nameOf = (t: Tool) => (mobile ? MOBILE_NAMES[t] : undefined) ?? DESKTOP_NAMES[t];

  return (
    <section className="card overflow-hidden">
      <div className="flex items-center justify-between gap-3 px-4 py-2.5 sm:px-5">
        <h2 className="flex items-center gap-2 font-display text-lg font-semibold text-stone-900 dark:text-amber-50">
          Tools
          <span className="flex items-center gap-1.5 font-sans text-sm font-normal text-stone-500 dark:text-stone-400">
            <span className="h-3 w-3 rounded-full border border-black/10" style={{ backgroundColor: style.stroke }} />
            {nameOf(tool)} · {style.size} px
          </span>
        </h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen(!open)}
          className="flex items-center gap-1 rounded-full px-3 py-1 text-sm font-medium text-stone-600 transition hover:bg-amber-100 dark:text-stone-300 dark:hover:bg-stone-800"
        >
          {open ? 'Hide tools' : 'Show tools'}
          <ChevronIcon open={open} />
        </button>
      </div>

      {open && (
        <div id={bodyId} className="space-y-5 border-t border-amber-100 px-4 py-4 sm:px-5 dark:border-stone-800">
          <div role="group" aria-label="Tools" className="flex flex-wrap gap-2">
            {tools.map((t) => (
              <button
                key={t}
                type="button"
                aria-label={nameOf(t)}
                title={nameOf(t)}
                aria-pressed={tool === t}
                onClick={() => onTool(t)}
                className={`flex h-10 items-center justify-center gap-2 rounded-xl border transition ${mobile ? 'flex-1 px-4' : 'w-10'} ${
                  tool === t
                    ? 'border-transparent bg-gradient-to-br from-amber-500 to-rose-500 text-white shadow-md shadow-rose-500/20'
                    : 'border-amber-200 bg-white text-stone-700 hover:bg-amber-50 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-200 dark:hover:bg-stone-800'
                }`}
              >
                <ToolIcon tool={t} />
                {mobile && <span className="font-medium">{nameOf(t)}</span>}
              </button>
            ))}
          </div>

          <StyleControls style={style} onChange={onStyle} mobile={mobile} />

          <div
            className={`border-t border-amber-100 pt-4 dark:border-stone-800 ${mobile ? 'grid grid-cols-4 gap-2' : 'flex flex-wrap gap-2'}`}
          >
            <Action
              label="Undo"
              icon={<UndoIcon />}
              onClick={actions.onUndo}
              disabled={!surface.canUndo}
              stacked={mobile}
            />
            <Action
              label="Redo"
              icon={<RedoIcon />}
              onClick={actions.onRedo}
              disabled={!surface.canRedo}
              stacked={mobile}
            />
            <Action label="Clear" icon={<ClearIcon />} onClick={actions.onClear} stacked={mobile} />
            <Action label="Download" icon={<DownloadIcon />} onClick={actions.onDownload} stacked={mobile} />
          </div>
        </div>
      )}
    </section>
  );
}

interface ActionProps {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  /** Icon over a small label, so four fit across a phone. */
  stacked?: boolean;
}

function Action({ label, icon, onClick, disabled, stacked }: ActionProps) {
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClick}
      disabled={disabled}
      className={`btn-secondary ${stacked ? 'flex-col gap-0.5 rounded-2xl px-1 py-1.5 text-xs' : 'px-4 py-1.5 text-sm'}`}
    >
      {icon}
      {label}
    </button>
  );
}
