import { toast } from '../../../components/Toaster.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { resizeToJpeg, type ResizedImage } from '../../../lib/image.ts';

// Upload-form file rules (spec §5, §9).
const MAX_FILE_BYTES = 20 * 1024 * 1024;
const LARGE_FILE_BYTES = 2 * 1024 * 1024;
const MAX_RESULT_BYTES = 2048 * 1024;
const MAX_SIDE = 1600;
const QUALITY = 0.8;
const NOTICE_THRESHOLD = 0.1;

/** Checks and shrinks a chosen photo, telling the visitor what happened; null when it cannot be used. */
export async function prepareImage(file: File): Promise<ResizedImage | null> {
  if (file.size > MAX_FILE_BYTES) {
    toast({ title: 'File too large', description: 'Please select an image under 20MB', variant: 'destructive' });
    return null;
  }
  if (file.size > LARGE_FILE_BYTES) {
    toast({ title: 'Processing large image...', description: 'Optimizing your photo for upload' });
  }

  let result: ResizedImage;
  try {
    result = await resizeToJpeg(file, MAX_SIDE, MAX_SIDE, QUALITY);
  } catch {
    toast({
      title: 'Processing failed',
      description: 'Could not optimize image. Please try a different photo.',
      variant: 'destructive',
    });
    return null;
  }

  if (result.bytes > MAX_RESULT_BYTES) {
    toast({
      title: 'Image still too large',
      description: 'Try a different photo or reduce the image size before uploading.',
      variant: 'destructive',
    });
    return null;
  }
  const saved = 1 - result.bytes / file.size;
  if (saved > NOTICE_THRESHOLD) {
    toast({
      title: 'Image optimized',
      description: `Reduced by ${Math.round(saved * 100)}% (${formatBytes(file.size)} → ${formatBytes(result.bytes)})`,
    });
  }
  return result;
}
