import { describe, expect, it } from 'vitest';
import { cueWords } from './cues.ts';

describe('cueWords', () => {
  it("gives each cue's words, without the header, notes, styles, identifiers, timings or tags", () => {
    const vtt = [
      '\uFEFFWEBVTT - a title',
      'Kind: captions',
      '',
      'STYLE',
      '::cue { color: yellow }',
      '',
      'NOTE a note',
      'over two lines',
      '',
      'greeting',
      '00:00:00.000 --> 00:00:02.000 align:start',
      '<v Sam>Happy <i>birthday</i>,</v>',
      'Alex!',
      '',
      '',
      '',
      '00:02.000 --> 00:04.000',
      'Fish &amp; chips &lt;3 &#x1F389; &#233;&nbsp;voilà',
      '',
      '00:04.000 --> 00:05.000',
      '',
    ].join('\r\n');
    expect(cueWords(vtt)).toEqual(['Happy birthday, Alex!', 'Fish & chips <3 🎉 é\u00a0voilà']);
  });

  it('is empty for a track with no cues', () => {
    expect(cueWords('WEBVTT\n')).toEqual([]);
  });
});
