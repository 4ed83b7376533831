import { describe, expect, it } from 'vitest';
import { checkStrokes, MAX_STROKES_BYTES, strokesDuration, type StrokeRecording } from '../../../contract/strokes.ts';
import { fit, pencilPoints, StrokeRecorder } from './recorder.ts';

const style = { size: 5, stroke: '#dc2626', fill: '#fbbf24', filled: true, opacity: 80 };

describe('the stroke recorder', () => {
  it('records the marks now on the canvas, in order, so undone ones drop out', () => {
    const recorder = new StrokeRecorder<object>();
    const first = {};
    const second = {};
    recorder.begin('brush', style, { x: 1, y: 2 });
    recorder.move({ x: 3, y: 4 }, true);
    recorder.move({ x: 5, y: 6 }, true);
    recorder.finish(first);
    recorder.begin('rectangle', style, { x: 10, y: 10 });
    recorder.move({ x: 20, y: 20 }, false);
    recorder.move({ x: 30, y: 40 }, false);
    recorder.finish(second);
    const all = recorder.recording([first, second], 800, 400, '#ffffff')!;
    expect(checkStrokes(all)).toMatchObject({ ok: true });
    expect(all.strokes.map((s) => s.tool)).toEqual(['brush', 'rectangle']);
    // as Fabric's pencil keeps them: it drops the point before the last
    expect(all.strokes[0]!.points.filter((_, i) => i % 3 !== 2)).toEqual([1, 2, 5, 6]);
    expect(all.strokes[0]!.fill).toBeNull();
    // a shape keeps where the drag began and where it ended
    expect(all.strokes[1]!.points.filter((_, i) => i % 3 !== 2)).toEqual([10, 10, 30, 40]);
    expect(all.strokes[1]!.fill).toBe('#fbbf24');
    expect(recorder.recording([second], 800, 400, '#ffffff')!.strokes).toHaveLength(1);
  });

  it('records the eraser as the paper colour at full strength', () => {
    const recorder = new StrokeRecorder<object>();
    const mark = {};
    recorder.begin('eraser', style, { x: 1, y: 1 });
    recorder.finish(mark);
    expect(recorder.recording([mark], 800, 400, '#ffffff')!.strokes[0]).toMatchObject({
      color: '#ffffff',
      opacity: 100,
    });
  });

  it('thins a recording over 512 KB until it fits, keeping every stroke and its end', () => {
    const points = Array.from({ length: 3000 }, (_, i) => [i % 800, i % 400, i]).flat();
    const big: StrokeRecording = {
      version: 1,
      width: 800,
      height: 400,
      background: '#ffffff',
      strokes: Array.from({ length: 20 }, (_, i) => ({
        tool: 'brush' as const,
        color: '#000000',
        fill: null,
        size: 3,
        opacity: 100,
        t: i * 4000,
        points,
      })),
    };
    expect(JSON.stringify(big).length).toBeGreaterThan(MAX_STROKES_BYTES);
    const fitted = fit(big)!;
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(MAX_STROKES_BYTES);
    expect(fitted.strokes).toHaveLength(20);
    expect(fitted.strokes[0]!.points.slice(-3)).toEqual(points.slice(-3));
    expect(strokesDuration(fitted)).toBe(strokesDuration(big));
    expect(checkStrokes(fitted)).toMatchObject({ ok: true });
  });

  it("keeps a pencil stroke's points as Fabric does: no repeats, none closer than 0.4 px, not the one before the last", () => {
    const xy = (points: number[]) => points.filter((_, i) => i % 3 !== 2);
    // recorded as [x, y, dt]
    const path = [0, 0, 0, 0, 0, 1, 0.2, 0, 2, 1, 0, 3, 1, 0, 4, 1.3, 0, 5, 2, 0, 6, 3, 0, 7, 4, 0, 8];
    expect(xy(pencilPoints(path))).toEqual([0, 0, 1, 0, 2, 0, 4, 0]);
    // a repeated last point is one point: the point before it is still the one dropped
    expect(xy(pencilPoints([0, 0, 0, 5, 0, 1, 9, 0, 2, 9, 0, 3]))).toEqual([0, 0, 9, 0]);
    expect(xy(pencilPoints([3, 4, 0]))).toEqual([3, 4]);
    expect(xy(pencilPoints([3, 4, 0, 3, 4, 5]))).toEqual([3, 4]);
  });

  it("records a spray's dots, not the pointer's path, and a shape's last point before the button rose", () => {
    const recorder = new StrokeRecorder<object>();
    const spray = {};
    recorder.begin('spray', style, { x: 100, y: 100 });
    recorder.dots([
      { x: 99, y: 101 },
      { x: 102, y: 98 },
    ]);
    recorder.move({ x: 110, y: 100 }, true);
    recorder.dots([{ x: 109, y: 99 }]);
    recorder.finish(spray);
    const star = {};
    recorder.begin('star', style, { x: 300, y: 200 });
    recorder.move({ x: 300, y: 150 }, false);
    recorder.finish(star);
    const { strokes } = recorder.recording([spray, star], 800, 400, '#ffffff')!;
    expect(strokes[0]!.points.filter((_, i) => i % 3 !== 2)).toEqual([99, 101, 102, 98, 109, 99]);
    expect(strokes[1]!.points.filter((_, i) => i % 3 !== 2)).toEqual([300, 200, 300, 150]);
  });

  it('gives no recording rather than one that would not end on the drawing', () => {
    const recorder = new StrokeRecorder<object>();
    const seen = {};
    recorder.begin('brush', style, { x: 1, y: 1 });
    recorder.finish(seen);
    expect(recorder.recording([seen, {}], 800, 400, '#ffffff'), 'a mark it did not see made').toBeNull();
    // a spray's dots are never thinned: too many of them and there is no recording
    const dots = Array.from({ length: 50_000 }, (_, i) => [i % 800, i % 400, i]).flat();
    const spray = { tool: 'spray' as const, color: '#000000', fill: null, size: 30, opacity: 100, t: 0, points: dots };
    expect(fit({ version: 1, width: 800, height: 400, background: '#ffffff', strokes: [spray] })).toBeNull();
    const small = { ...spray, points: dots.slice(0, 3000) };
    const kept = fit({ version: 1, width: 800, height: 400, background: '#ffffff', strokes: [small] });
    expect(kept!.strokes[0]!.points).toEqual(small.points);
  });

  it('checks recordings from outside', () => {
    expect(checkStrokes(null)).toMatchObject({ ok: false });
    const one = { tool: 'brush', color: '#000000', fill: null, size: 3, opacity: 100, t: 5, points: [1, 2, 0] };
    const base = { version: 1, width: 800, height: 400, background: '#ffffff' };
    expect(checkStrokes({ ...base, strokes: [one] })).toMatchObject({ ok: true });
    expect(checkStrokes({ ...base, strokes: [one, { ...one, t: 1 }] })).toMatchObject({
      ok: false,
      message: 'Stroke 2 starts before the one before it',
    });
    expect(checkStrokes({ ...base, strokes: [{ ...one, points: [1, 2] }] })).toMatchObject({ ok: false });
    expect(checkStrokes({ ...base, strokes: [{ ...one, size: 0 }] })).toMatchObject({ ok: false });
    expect(checkStrokes({ ...base, strokes: [{ ...one, color: 'red' }] })).toMatchObject({ ok: false });
  });
});
