import { useEffect, useMemo, useRef, useState } from 'react';
import type { DrawingStyle, Tool } from '../../../drawing/tools.ts';
import { BLANK_SURFACE, createDrawingSurface, type DrawingSurface } from '../../../drawing/fabricCanvas.ts';

/** Mounts the Fabric surface into `host` for the life of the component and keeps its tool and style current. */
export function useDrawingSurface(tool: Tool, style: DrawingStyle) {
  const host = useRef<HTMLDivElement>(null);
  const surface = useRef<DrawingSurface | null>(null);
  const [state, setState] = useState(BLANK_SURFACE);

  useEffect(() => {
    if (!host.current) return;
    const created = createDrawingSurface(host.current, setState);
    surface.current = created;
    return () => {
      created.dispose();
      surface.current = null;
      setState(BLANK_SURFACE);
    };
  }, []);

  useEffect(() => surface.current?.use(tool, style), [tool, style]);

  const actions = useMemo(
    () => ({
      undo: () => surface.current?.undo(),
      redo: () => surface.current?.redo(),
      clear: () => surface.current?.clear(),
      /** The drawing as an 800x400 canvas; null before the surface exists. */
      render: () => surface.current?.render() ?? null,
      /** The strokes on the canvas, for replay; null before the surface exists. */
      strokes: () => surface.current?.strokes() ?? null,
    }),
    [],
  );
  return { host, state, ...actions };
}
