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
}

/** Under an upload (artwork or media): what the piece is called and is about, then who made it. */
export function UploadDetails({ titles, about, onAbout, placeholders, submitter, onSubmitter }: UploadDetailsProps) {
  return (
    <>
      <FormSection title={titles.about}>
        <AboutFields value={about} onChange={onAbout} placeholders={placeholders} />
      </FormSection>
      <FormSection title={titles.submitter}>
        <SubmitterFields value={submitter} onChange={onSubmitter} />
      </FormSection>
    </>
  );
}
