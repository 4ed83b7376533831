import sharp from 'sharp';

export async function jpegDataUrl(width = 640, height = 480, color = '#e07a5f'): Promise<string> {
  const buf = await sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
  return `data:image/jpeg;base64,${buf.toString('base64')}`;
}

export const svgDataUrl = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`;
export const textAsPng = `data:image/png;base64,${Buffer.from('this is not an image at all').toString('base64')}`;
