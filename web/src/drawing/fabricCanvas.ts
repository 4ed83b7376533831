import { Canvas, Group, type FabricObject } from 'fabric';
import { hasContent } from './content.ts';
import { canRedo, canUndo, current, record, redo, startHistory, undo, type DrawingHistory } from './history.ts';
import type { Point } from '../../../contract/shapes.ts';
import { CANVAS_HEIGHT, CANVAS_WIDTH, INITIAL_STYLE, isFreehand, type DrawingStyle, type Tool } from './tools.ts';
import { makeBrush, makeShape, PAPER, RoundSprayBrush } from './fabricTools.ts';
import { StrokeRecorder } from './recorder.ts';
import type { StrokeRecording } from '../../../contract/strokes.ts';

export interface SurfaceState {
  canUndo: boolean;
  canRedo: boolean;
  hasContent: boolean;
}

export const BLANK_SURFACE: SurfaceState = { canUndo: false, canRedo: false, hasContent: false };

/** The studio's canvas, the one place Fabric is driven from. */
export interface DrawingSurface {
  use(tool: Tool, style: DrawingStyle): void;
  undo(): void;
  redo(): void;
  clear(): void;
  /** The drawing at its internal 800x400, on white, for exports. */
  render(): HTMLCanvasElement;
  /** The marks now on the canvas as they were drawn, for replay (contract/strokes.ts); null if it cannot be whole. */
  strokes(): StrokeRecording | null;
  dispose(): void;
}

/**
 * Drawn objects never change once finished, so a snapshot is just the list of objects on the canvas:
 * undo and redo swap lists instead of re-decoding images.
 */
type Snapshot = readonly FabricObject[];

/** Puts an 800x400 Fabric canvas into `host`, sized by CSS to fill it; Fabric maps pointers through that scale. */
export function createDrawingSurface(host: HTMLElement, onChange: (state: SurfaceState) => void): DrawingSurface {
  const element = document.createElement('canvas');
  host.append(element);
  const canvas = new Canvas(element, {
    width: CANVAS_WIDTH,
    height: CANVAS_HEIGHT,
    backgroundColor: PAPER,
    // One code path for mouse, touch and pen.
    enablePointerEvents: true,
    selection: false,
    skipTargetFind: true,
    defaultCursor: 'crosshair',
    hoverCursor: 'crosshair',
    freeDrawingCursor: 'crosshair',
  });
  canvas.setDimensions({ width: '100%', height: '100%' }, { cssOnly: true });
  canvas.requestRenderAll();

  let history: DrawingHistory<Snapshot> = startHistory<Snapshot>([]);
  let tool: Tool = 'brush';
  let style = INITIAL_STYLE;
  let drag: { from: Point; shape: FabricObject | null } | null = null;
  // each finished object keeps the stroke that made it, so undo, redo and clear need nothing more
  const recorder = new StrokeRecorder<FabricObject>();

  function render() {
    return canvas.toCanvasElement(1);
  }

  function publish() {
    const pixels = render().getContext('2d')?.getImageData(0, 0, CANVAS_WIDTH, CANVAS_HEIGHT).data;
    onChange({ canUndo: canUndo(history), canRedo: canRedo(history), hasContent: pixels ? hasContent(pixels) : false });
  }

  function show(snapshot: Snapshot) {
    canvas.remove(...canvas.getObjects());
    canvas.add(...snapshot);
    canvas.requestRenderAll();
  }

  function commit() {
    history = record(history, [...canvas.getObjects()]);
    publish();
  }

  canvas.on('path:created', ({ path }) => {
    recorder.finish(path);
    // Drawn straight onto the canvas, without a cache canvas: a cache would hold a canvas as big as a
    // long stroke for every undo step, and drawing a cache blurs a spray's dots by its half pixels.
    path.set({ selectable: false, evented: false, objectCaching: false });
    if (path instanceof Group) for (const dot of path.getObjects()) dot.set({ objectCaching: false });
    commit();
  });

  // Fabric hands the pointer to the brush before it fires these events: a spray's dots are made by then.
  const sprayed = () => (canvas.freeDrawingBrush instanceof RoundSprayBrush ? canvas.freeDrawingBrush.takeDots() : []);
  canvas.on('mouse:down', ({ scenePoint }) => {
    recorder.begin(tool, style, scenePoint);
    recorder.dots(sprayed());
    if (!isFreehand(tool)) drag = { from: scenePoint, shape: null };
  });
  canvas.on('mouse:move', ({ scenePoint }) => {
    recorder.move(scenePoint, isFreehand(tool));
    recorder.dots(sprayed());
    if (!drag || isFreehand(tool)) return;
    if (drag.shape) canvas.remove(drag.shape);
    drag.shape = makeShape(tool, drag.from, scenePoint, style);
    if (drag.shape) canvas.add(drag.shape);
  });
  canvas.on('mouse:up', () => {
    const finished = drag?.shape;
    drag = null;
    if (finished) {
      // the shape is where the last move put it: the recording keeps that point, not where the button rose
      recorder.finish(finished);
      commit();
    }
  });

  return {
    use(nextTool, nextStyle) {
      tool = nextTool;
      style = nextStyle;
      canvas.isDrawingMode = isFreehand(tool);
      if (isFreehand(tool)) canvas.freeDrawingBrush = makeBrush(canvas, tool, style);
    },
    undo() {
      history = undo(history);
      show(current(history));
      publish();
    },
    redo() {
      history = redo(history);
      show(current(history));
      publish();
    },
    clear() {
      show([]);
      commit();
    },
    render,
    strokes: () => recorder.recording(current(history), CANVAS_WIDTH, CANVAS_HEIGHT, PAPER),
    dispose() {
      // dispose() puts the bare <canvas> back where Fabric's wrapper was; take it out too.
      void canvas.dispose();
      element.remove();
    },
  };
}
