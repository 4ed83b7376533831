import { useDraft } from '../../../lib/drafts.ts';
import { TextField } from './TextField.tsx';

/** What a piece is called and what it is about: optional on every upload form. */
export interface About {
  title: string;
  description: string;
}

export const NO_ABOUT: About = { title: '', description: '' };

/**
 * A form's title and description, kept on the device until sent or cleared (decision 099); `form`
 * names the form ('artwork', 'drawing', 'media'). The file itself is not kept.
 */
export function useAboutDraft(form: string): [About, (next: About) => void] {
  const [title, setTitle] = useDraft(`${form}.title`);
  const [description, setDescription] = useDraft(`${form}.description`);
  const setAbout = (next: About) => {
    setTitle(next.title);
    setDescription(next.description);
  };
  return [{ title, description }, setAbout];
}

interface AboutFieldsProps {
  value: About;
  onChange: (next: About) => void;
  placeholders: About;
}

export function AboutFields({ value, onChange, placeholders }: AboutFieldsProps) {
  return (
    <>
      <TextField
        label="Title"
        value={value.title}
        onChange={(title) => onChange({ ...value, title })}
        optional
        placeholder={placeholders.title}
      />
      <TextField
        label="Description"
        value={value.description}
        onChange={(description) => onChange({ ...value, description })}
        multiline
        optional
        placeholder={placeholders.description}
      />
    </>
  );
}
