import { describe, expect, it } from 'vitest';
import { likeCountText } from './likes.ts';
import { mediaTags, mediaTypeOf } from './media.ts';
import { storyAuthor, storyTitle } from './stories.ts';

describe('detail-page texts', () => {
  it('titles a story by its title, else its first six words and ...', () => {
    expect(storyTitle({ title: 'The Move', content: 'anything' })).toBe('The Move');
    expect(storyTitle({ title: '  ', content: 'We drove to the coast and sang\nall the way' })).toBe(
      'We drove to the coast and...',
    );
    expect(storyTitle({ title: null, content: ' Short one ' })).toBe('Short one...');
  });

  it('names the author, or Anonymous', () => {
    expect(storyAuthor({ isAnonymous: true, authorName: 'Robin' })).toBe('Anonymous');
    expect(storyAuthor({ isAnonymous: false, authorName: 'Robin' })).toBe('Robin');
  });

  it("counts '0 likes', '1 like', 'N likes'", () => {
    expect([0, 1, 2, 12].map(likeCountText)).toEqual(['0 likes', '1 like', '2 likes', '12 likes']);
  });

  it('splits comma-separated tags and knows video from audio', () => {
    expect(mediaTags(' party, cake ,, team ')).toEqual(['party', 'cake', 'team']);
    expect(mediaTags(null)).toEqual([]);
    expect(mediaTags(['a', ' b '])).toEqual(['a', 'b']);
    expect([mediaTypeOf('video/quicktime'), mediaTypeOf('audio/mpeg'), mediaTypeOf('text/plain')]).toEqual([
      'video',
      'audio',
      null,
    ]);
  });
});
