import type { ReactNode } from 'react';
import { AboutFields, type About } from './AboutFields.tsx';
import { FormSection } from './FormSection.tsx';
import { SubmitterFields, type Submitter } from './SubmitterFields.tsx';

interface UploadDetailsProps {
  /** The two cards' headings: what the piece is, and who made it. */
  titles: { about: string; submitter: string };
  about: About;
  onAbout: (next: About) => void;
  placeholders: About;
  submitter: Submitter;
  onSubmitter: (next: Submitter) => void;
  /** further fields of the piece's own, under its title and description (an artwork's alt text) */
  more?: ReactNode;
}

/** Under an upload (artwork or media): what the piece is called and is about, then who made it. */
export function UploadDetails(props: UploadDetailsProps) {
  const { titles, about, onAbout, placeholders, submitter, onSubmitter, more } = props;
  return (
    <>
      <FormSection title={titles.about}>
        <AboutFields value={about} onChange={onAbout} placeholders={placeholders} />
        {more}
      </FormSection>
      <FormSection title={titles.submitter}>
        <SubmitterFields value={submitter} onChange={onSubmitter} />
      </FormSection>
    </>
  );
}
