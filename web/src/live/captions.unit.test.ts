import { describe, expect, it } from 'vitest';
import { withCaptions } from './captions.ts';

const message = { position: 9, after: 8, kind: 'media' as const, id: 3, captionsUrl: '/api/media/3/captions' };

describe('a live change of a track (decisions 123, 130)', () => {
  it('patches the message, and the gallery pages and deck that list it, and nothing else', () => {
    expect(withCaptions(['media', 3], { id: 3, captionsUrl: null }, message)).toEqual({
      id: 3,
      captionsUrl: '/api/media/3/captions',
    });
    const page = {
      items: [
        { kind: 'media', id: 3, captionsUrl: null },
        { kind: 'story', id: 3 },
      ],
    };
    expect(withCaptions(['gallery', 'reveal'], page, message)).toEqual({
      items: [
        { kind: 'media', id: 3, captionsUrl: '/api/media/3/captions' },
        { kind: 'story', id: 3 },
      ],
    });
    const other = { items: [{ kind: 'media', id: 4, captionsUrl: null }] };
    expect(withCaptions(['gallery', 1], other, message)).toBe(other);
    const words = 'WEBVTT\n';
    expect(withCaptions(['media', 3, 'captions'], words, message)).toBe(words);
    const story = { id: 3 };
    expect(withCaptions(['stories', 3], story, message)).toBe(story);
  });
});
