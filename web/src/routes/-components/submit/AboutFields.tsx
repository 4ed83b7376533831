import { TextField } from './TextField.tsx';

/** What a piece is called and what it is about: optional on every upload form. */
export interface About {
  title: string;
  description: string;
}

export const NO_ABOUT: About = { title: '', description: '' };

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
