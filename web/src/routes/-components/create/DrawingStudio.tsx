import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { tributeQueryOptions } from '../../../queries/tribute.ts';
import { INITIAL_STYLE, MOBILE_TOOLS, type Tool } from '../../../drawing/tools.ts';
import { downloadDrawing } from './exportDrawing.ts';
import { SubmitDrawingForm } from './SubmitDrawingForm.tsx';
import { ToolPanel } from './ToolPanel.tsx';
import { useDrawingSurface } from './useDrawingSurface.ts';
import { useIsMobile } from './useIsMobile.ts';

/** /create: the canvas with its tool panel, and the form that sends the drawing to the gallery. */
export function DrawingStudio() {
  const mobile = useIsMobile();
  const name = useQuery(tributeQueryOptions()).data?.name;
  const [chosenTool, setTool] = useState<Tool>('brush');
  const [style, setStyle] = useState(INITIAL_STYLE);
  // A shape chosen on a wide screen falls back to the brush when the window narrows to the simple panel.
  const tool = mobile && !MOBILE_TOOLS.includes(chosenTool) ? 'brush' : chosenTool;
  const drawing = useDrawingSurface(tool, style);
  const { undo, redo } = drawing;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || isTyping(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) undo();
      else if (key === 'y' || (key === 'z' && event.shiftKey)) redo();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo]);

  function onDownload() {
    const canvas = drawing.render();
    if (canvas) void downloadDrawing(canvas);
  }

  return (
    <div className="mx-auto max-w-[1240px] px-4 py-10 sm:px-6 sm:py-12">
      <header className="mb-8 text-center">
        <h1 className="font-display text-4xl font-bold text-stone-900 sm:text-5xl dark:text-amber-50">
          Drawing Studio
        </h1>
        <p className="mx-auto mt-4 max-w-xl text-lg text-stone-600 dark:text-stone-300">
          Sketch something for {name ?? 'our friend'}, then share it with the gallery.
        </p>
      </header>

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:gap-8">
        {/* On a phone the canvas comes first, with the tools below it under the thumb. */}
        <div className="flex min-w-0 flex-col gap-4">
          <ToolPanel
            mobile={mobile}
            tool={tool}
            onTool={setTool}
            style={style}
            onStyle={setStyle}
            surface={drawing.state}
            onUndo={undo}
            onRedo={redo}
            onClear={drawing.clear}
            onDownload={onDownload}
          />
          <div className="card order-first p-2 sm:p-3 md:order-none">
            {/* Fabric fills this box; its 2:1 shape keeps strokes undistorted at any width. */}
            <div
              ref={drawing.host}
              role="img"
              aria-label="Drawing canvas"
              className="mx-auto aspect-[2/1] w-full max-w-[800px] touch-none overflow-hidden rounded-xl bg-white ring-1 ring-stone-200 select-none dark:ring-stone-700"
            />
          </div>
        </div>
        <SubmitDrawingForm hasContent={drawing.state.hasContent} render={drawing.render} strokes={drawing.strokes} />
      </div>
    </div>
  );
}

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}
