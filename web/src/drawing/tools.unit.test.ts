import { describe, expect, it } from 'vitest';
import { DESKTOP_PALETTE_SIZE, MOBILE_PALETTE_SIZE, PALETTE, withOpacity } from './tools.ts';

describe('drawing tools', () => {
  it('writes a colour at an opacity in percent', () => {
    expect(withOpacity('#dc2626', 100)).toBe('rgba(220, 38, 38, 1)');
    expect(withOpacity('#2563eb', 30)).toBe('rgba(37, 99, 235, 0.3)');
  });

  it('has 12 distinct palette colours on desktop and 10 on mobile', () => {
    expect(new Set(PALETTE.map((c) => c.hex)).size).toBe(PALETTE.length);
    expect(PALETTE.slice(0, DESKTOP_PALETTE_SIZE)).toHaveLength(12);
    expect(PALETTE.slice(0, MOBILE_PALETTE_SIZE)).toHaveLength(10);
  });
});
