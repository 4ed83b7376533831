import type { StoryEvent } from '#events/stories/story.ts';
import { deleteSql, forgotten, moderated, reviewSql, searchText, toSender, type Statements } from './statement.ts';

const review = reviewSql('story');
const ANONYMOUS = 'Anonymous';

export const storyStatements: Statements<StoryEvent['type']> = {
  StorySubmitted: {
    sql: `INSERT INTO catalog_items (kind, id, status, title, content, artist_name, is_anonymous, email_ref,
            created_at, search_text, last_position)
          SELECT 'story', r.id, 'pending', r.title, r.content, r.author_name, r.is_anonymous, r.email_ref,
            r.created_at, r.search_text, r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, title text, content text, author_name text,
            is_anonymous boolean, email_ref bigint, created_at timestamptz, search_text text, at bigint)`,
    row: ({ data: d, position }, { erased, text }) => {
      if (erased) return null;
      // an anonymous story never had its author's name recorded
      const authorName = d.isAnonymous ? ANONYMOUS : (text.authorName ?? '');
      return {
        id: d.storyId,
        title: text.title ?? null,
        content: text.content ?? '',
        author_name: authorName,
        is_anonymous: d.isAnonymous,
        email_ref: d.emailRef,
        created_at: d.submittedAt,
        // spec §5: stories are found by their content and author name
        search_text: searchText(text.content, authorName),
        at: position,
      };
    },
    heard: ({ data: d }) => moderated('story', d.storyId),
  },
  StoryApproved: {
    sql: review.approved,
    row: ({ data: d, position }, { text }) => ({
      id: d.storyId,
      notes: text.adminNotes ?? null,
      at_time: d.approvedAt,
      at: position,
    }),
    lastPerItem: true,
    heard: ({ data: d }) => [...moderated('story', d.storyId, 'added'), toSender('story', d.storyId, 'approved')],
  },
  StoryRejected: {
    sql: review.rejected,
    row: ({ data: d, position }, { text }) => ({ id: d.storyId, notes: text.adminNotes ?? null, at: position }),
    lastPerItem: true,
    heard: ({ data: d }) => [...moderated('story', d.storyId, 'removed'), toSender('story', d.storyId, 'rejected')],
  },
  StoryDeleted: {
    sql: deleteSql('story'),
    row: ({ data: d }) => ({ id: d.storyId }),
    lastPerItem: true,
    heard: ({ data: d }) => [...moderated('story', d.storyId, 'removed'), forgotten('story', d.storyId)],
  },
  StoryEdited: {
    // an anonymous story keeps reading 'Anonymous': its sender's name was never recorded
    sql: `UPDATE catalog_items c SET title = r.title, content = r.content,
            artist_name = CASE WHEN c.is_anonymous THEN c.artist_name ELSE r.author_name END,
            search_text = lower(concat_ws(E'\n', r.content, CASE WHEN c.is_anonymous THEN c.artist_name ELSE r.author_name END)),
            last_position = r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, title text, content text, author_name text, at bigint)
          WHERE c.kind = 'story' AND c.id = r.id`,
    row: ({ data: d, position }, { erased, text }) =>
      erased
        ? null
        : {
            id: d.storyId,
            title: text.title ?? null,
            content: text.content ?? '',
            author_name: text.authorName ?? '',
            at: position,
          },
    lastPerItem: true,
    heard: ({ data: d }) => moderated('story', d.storyId),
  },
  StoryWithdrawn: {
    sql: deleteSql('story'),
    row: ({ data: d }) => ({ id: d.storyId }),
    lastPerItem: true,
    heard: ({ data: d }) => [
      ...moderated('story', d.storyId, 'removed'),
      toSender('story', d.storyId, 'withdrawn'),
      forgotten('story', d.storyId),
    ],
  },
};
