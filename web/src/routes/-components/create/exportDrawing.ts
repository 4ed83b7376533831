import { toast } from '../../../components/Toaster.tsx';
import { resizeToJpeg } from '../../../lib/image.ts';
import { MAX_STROKES_SIDE } from '../../../../../contract/strokes.ts';

// Spec §9.
const DOWNLOAD = { maxSide: 1200, quality: 0.9 };
// no larger than a recording may be (contract/strokes.ts), so the recording can match it
const SUBMISSION = { maxSide: MAX_STROKES_SIDE, quality: 0.95 };

function toPngBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('Could not export the drawing'))), 'image/png'),
  );
}

async function toJpeg(canvas: HTMLCanvasElement, { maxSide, quality }: typeof DOWNLOAD): Promise<string> {
  return (await resizeToJpeg(await toPngBlob(canvas), maxSide, maxSide, quality)).dataUrl;
}

/** Saves the drawing fitted to 1200x1200 as a JPEG, or as a PNG when the JPEG cannot be made. */
export async function downloadDrawing(canvas: HTMLCanvasElement): Promise<void> {
  let href: string;
  let fileName: string;
  try {
    href = await toJpeg(canvas, DOWNLOAD);
    fileName = 'tribute-drawing.jpg';
  } catch {
    href = canvas.toDataURL('image/png');
    fileName = 'tribute-drawing.png';
  }
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.click();
  toast({ title: 'Downloaded!', description: 'Your drawing has been saved to your device.' });
}

/** The image to submit: fitted to 2400x2400 as a JPEG, or the original PNG with a notice when that fails. */
export async function drawingForSubmission(canvas: HTMLCanvasElement): Promise<string> {
  try {
    return await toJpeg(canvas, SUBMISSION);
  } catch {
    toast({ title: 'Optimization skipped', description: 'Your drawing will be sent at its original quality.' });
    return canvas.toDataURL('image/png');
  }
}
