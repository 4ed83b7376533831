import { describe, expect, it } from 'vitest';
import { cleanTrack, clockOf, transcriptOf } from './transcript.ts';

describe('transcriptOf (decision 130)', () => {
  it("reads a track's cues as lines of text, leaving out its header, notes, styles and markup", () => {
    const vtt = [
      '\uFEFFWEBVTT - wishes',
      'Kind: captions',
      '',
      'NOTE written by Sam',
      'over two lines',
      '',
      'STYLE',
      '::cue { color: yellow }',
      '',
      'intro',
      '00:00:01.000 --> 00:00:02.500 align:start',
      '<v.loud Sam Painter>Happy <b>birthday</b>,',
      'Alex!',
      '',
      '01:02.250 --> 01:04.000',
      'Fish &amp; chips &lt;3 &#x1F382; <00:01:03.000>later',
      '',
      '00:01:05.000 --> 00:01:06.000',
      '',
    ].join('\r\n');
    expect(transcriptOf(vtt)).toEqual([
      { start: 1, text: 'Sam Painter: Happy birthday, Alex!' },
      { start: 62.25, text: 'Fish & chips <3 🎂 later' },
    ]);
  });

  it('reads a timing with no space around its arrow, as browsers play it', () => {
    expect(transcriptOf('WEBVTT\n\n00:01.000-->00:02.000\nTight\n\n00:03.000\t-->\t00:04.000\nTabbed\n')).toEqual([
      { start: 1, text: 'Tight' },
      { start: 3, text: 'Tabbed' },
    ]);
  });

  it('finds nothing in a track with no cues', () => {
    expect(transcriptOf('WEBVTT\n')).toEqual([]);
    expect(transcriptOf('WEBVTT\n\nNOTE only a note\n')).toEqual([]);
  });

  it('writes a start as a clock', () => {
    expect([0, 7.9, 135, 3723].map(clockOf)).toEqual(['0:00', '0:07', '2:15', '1:02:03']);
  });

  it('reads a cue that follows a note or another cue with no blank line between, as browsers do', () => {
    const vtt =
      'WEBVTT\n\nNOTE from the tool\nsam@example.com\n00:01.000 --> 00:02.000\nFirst\n00:03.000 --> 00:04.000\nSecond\n';
    expect(transcriptOf(vtt)).toEqual([
      { start: 1, text: 'First' },
      { start: 3, text: 'Second' },
    ]);
  });
});

describe('cleanTrack (decision 142)', () => {
  const SENT = [
    '\uFEFFWEBVTT - made by Sam Painter <sam@example.com>',
    'Kind: captions',
    '',
    'STYLE',
    '::cue(.sam) { color: yellow } /* Sam Painter */',
    '',
    'REGION',
    'id:sam-painter-region',
    '',
    'NOTE exported for sam@example.com',
    'by CaptionTool 3',
    '',
    'sam-intro',
    '00:00:01.000 --> 00:00:02.500 region:sam-painter-region align:start line:0',
    '<v.loud Sam Painter>Happy <c.sam>birthday</c>,',
    'Alex &amp; co <3',
    '',
    '61:02.250 --> 61:04.000',
    'Fish &lt;-- chips --&gt; &#10;later',
    '',
  ].join('\r\n');

  it('keeps the cues alone, their times and words: no header text, notes, styles, regions, ids or settings', () => {
    const kept = cleanTrack(SENT);
    expect(kept).toBe(
      [
        'WEBVTT',
        '',
        '00:00:01.000 --> 00:00:02.500',
        'Sam Painter: Happy birthday,',
        'Alex &amp; co &lt;3',
        '',
        '01:01:02.250 --> 01:01:04.000',
        'Fish &lt;-- chips --&gt;  later',
        '',
      ].join('\n'),
    );
    for (const left of ['sam@example.com', 'CaptionTool', 'color', 'sam-painter-region', 'sam-intro', 'line:0']) {
      expect(kept).not.toContain(left);
    }
  });

  it('reads back as the same words, and cleaning it again changes nothing', () => {
    const kept = cleanTrack(SENT);
    expect(transcriptOf(kept)).toEqual(transcriptOf(SENT));
    expect(cleanTrack(kept)).toBe(kept);
    expect(cleanTrack('WEBVTT\n\nNOTE only a note\n')).toBe('WEBVTT\n');
  });
});
