import { describe, it } from 'vitest';
import { spec } from '../../tests/support/decider.ts';
import { commentDecider, likeDecider, viewDecider } from './engagement.ts';

const now = '2025-09-12T10:00:00.000Z';
const target = { kind: 'story' as const, itemId: 4, visitorKey: 'v1' };

describe('like decider', () => {
  const like = spec(likeDecider);
  it('likes once and unlikes once: repeating either changes nothing', () => {
    like
      .given([])
      .when({ type: 'Like', target })
      .then([{ type: 'ItemLiked', data: target }]);
    like
      .given([{ type: 'ItemLiked', data: target }])
      .when({ type: 'Like', target })
      .thenNothing();
    like
      .given([{ type: 'ItemLiked', data: target }])
      .when({ type: 'Unlike', target })
      .then([{ type: 'ItemUnliked', data: target }]);
    like.given([]).when({ type: 'Unlike', target }).thenNothing();
  });
});

describe('view decider', () => {
  it('counts a visitor once', () => {
    const view = spec(viewDecider);
    view
      .given([])
      .when({ type: 'View', target })
      .then([{ type: 'ItemViewed', data: target }]);
    view
      .given([{ type: 'ItemViewed', data: target }])
      .when({ type: 'View', target })
      .thenNothing();
  });
});

describe('comment decider', () => {
  const comment = spec(commentDecider);
  const data = { kind: 'story' as const, itemId: 4, commentId: 9, authorNameRef: 11, contentRef: 12 };
  const posted = { type: 'CommentPosted' as const, data: { ...data, postedAt: now } };
  const removed = {
    type: 'CommentRemoved' as const,
    data: { kind: 'story' as const, itemId: 4, commentId: 9, removedAt: now },
  };
  it('posts once, removes once', () => {
    comment.given([]).when({ type: 'PostComment', data, now }).then([posted]);
    comment.given([posted]).when({ type: 'PostComment', data, now }).thenFails(409, 'Comment already exists');
    comment.given([posted]).when({ type: 'RemoveComment', now }).then([removed]);
    comment.given([posted, removed]).when({ type: 'RemoveComment', now }).thenFails(404, 'Comment not found');
    comment.given([]).when({ type: 'RemoveComment', now }).thenFails(404, 'Comment not found');
  });
});
