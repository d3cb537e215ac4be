import { describe, expect, it } from 'vitest';
import { createSurface } from '../engine/render/canvas';
import { useNodeCanvas } from './nodeCanvas';

describe('Node drawing surface', () => {
  it('draws and encodes a PNG that decodes to the drawn pixels', async () => {
    useNodeCanvas();
    const surface = createSurface(40, 20);
    surface.context.fillStyle = '#ff0000';
    surface.context.fillRect(0, 0, 20, 20);
    const png = await surface.toPng();
    expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    const { loadImage, createCanvas } = await import('@napi-rs/canvas');
    const image = await loadImage(Buffer.from(png));
    expect([image.width, image.height]).toEqual([40, 20]);
    const check = createCanvas(40, 20).getContext('2d');
    check.drawImage(image, 0, 0);
    expect([...check.getImageData(5, 5, 1, 1).data]).toEqual([255, 0, 0, 255]);
    expect(check.getImageData(30, 5, 1, 1).data[3]).toBe(0);
  });
});
